import ARVisTestSupport
import Foundation
import Testing

@testable import ARVisCLI

/// `arvis serve`'s options from the environment and a config file: every option has both, and the
/// command line wins over the environment, which wins over the file.
struct ServeSettingsTests {
    let scratch = ScratchFolder("serve-settings")

    @Test func everyOptionOfServeHasItsVariable() {
        let options = ServeSettings.serveOptions
        let names = Set(options.map(\.name))
        for name in [
            "data", "database", "blob-store", "otlp-endpoint", "port", "public-url", "ice-server", "relay-only",
            "quota-rows",
        ] {
            #expect(names.contains(name), "\(name)")
        }
        #expect(!names.contains("help"))
        #expect(options.first { $0.name == "database" }?.variable == "ARVIS_DATABASE")
        #expect(options.first { $0.name == "otlp-endpoint" }?.variable == "ARVIS_OTLP_ENDPOINT")
        #expect(options.first { $0.name == "ice-server" }?.isRepeating == true)
        #expect(options.first { $0.name == "relay-only" }?.isFlag == true)
    }

    @Test func theEnvironmentFillsWhatTheCommandLineLeaves() throws {
        let environment = [
            "ARVIS_DATABASE": "postgres://arvis@db/arvis", "ARVIS_PORT": "9000",
            "ARVIS_ICE_SERVER": "stun:a:3478, stun:b:3478", "ARVIS_RELAY_ONLY": "false", "ARVIS_TOKEN": "not serve's",
        ]
        let arguments = try ServeSettings.arguments(["--port", "8081"], environment: environment)
        #expect(arguments.starts(with: ["--port", "8081"]))
        #expect(!arguments.contains("9000") && !arguments.contains("--relay-only"))
        #expect(arguments.contains("postgres://arvis@db/arvis"))
        #expect(arguments.filter { $0 == "--ice-server" }.count == 2 && arguments.contains("stun:b:3478"))
        #expect(try ServeSettings.arguments([], environment: ["ARVIS_RELAY_ONLY": "yes"]) == ["--relay-only"])
        #expect(throws: ServeSettings.Problem.self) {
            try ServeSettings.arguments([], environment: ["ARVIS_RELAY_ONLY": "maybe"])
        }
    }

    @Test func aConfigFileFillsWhatTheEnvironmentLeaves() throws {
        let file = try scratch.file(
            "serve.yaml",
            """
            port: 8082
            host: 0.0.0.0
            ice-server: [stun:a:3478, stun:b:3478]
            relay-only: false
            max-asset-mb: 50
            """
        ).path
        let arguments = try ServeSettings.arguments(["--config", file], environment: ["ARVIS_HOST": "127.0.0.2"])
        #expect(arguments.contains("8082") && arguments.contains("50") && arguments.contains("127.0.0.2"))
        #expect(!arguments.contains("0.0.0.0") && !arguments.contains("--relay-only"))
        #expect(arguments.filter { $0 == "--ice-server" }.count == 2)
        // The file may be named by the environment too.
        #expect(try ServeSettings.arguments([], environment: ["ARVIS_CONFIG": file]).contains("8082"))
    }

    @Test func aConfigFileThatCannotBeUsedSaysWhy() throws {
        func problem(_ text: String) throws -> String {
            let file = try scratch.file("bad-\(abs(text.hashValue)).yaml", text).path
            do {
                _ = try ServeSettings.arguments(["--config", file], environment: [:])
                return ""
            } catch {
                return "\(error)"
            }
        }
        #expect(try problem("prot: 80").contains("did you mean 'port'?"))
        #expect(try problem("port: [1, 2]").contains("takes one value"))
        #expect(try problem("relay-only: 3").contains("true or false"))
        #expect(try problem("- a list").contains("a mapping"))
        #expect(try problem("port: {").contains("not YAML"))
        #expect(throws: ServeSettings.Problem.self) {
            try ServeSettings.arguments(["--config", "/nonexistent/serve.yaml"], environment: [:])
        }
    }

    @Test func serveRefusesABadSettingWithUsageExit() async throws {
        let file = try scratch.file("unknown.yaml", "colour: red").path
        #expect(await arvis(["serve", "--config", file]) == 2)
        #expect(await arvis(["serve", "--blob-store", "s3://Not_A_Bucket"]) == 2)
        #expect(await arvis(["serve", "--otlp-endpoint", "collector:4318"]) == 2)
        #expect(await arvis(["serve", "--otlp-endpoint", "file:///etc/passwd"]) == 2)
        #expect(await arvis(["admin", "migrate-blobs", "--blob-store", "ftp://x"]) == 2)
    }
}
