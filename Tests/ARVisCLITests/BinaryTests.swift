import ARVisCLI
import ARVisSpec
import ARVisTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The built `arvis` binary, run as a user runs it: exit codes, standard output and standard error.
struct BinaryTests {
    let scratch = ScratchFolder("binary")

    /// The `arvis` built beside this test bundle, if it was built.
    static let binary: URL? = {
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let url = folder.appendingPathComponent("arvis")
        return FileManager.default.isExecutableFile(atPath: url.path) ? url : nil
    }()

    struct Run: Sendable {
        var status: Int32
        var output: String
        var error: String
    }

    /// Runs the binary with `arguments`, `input` on standard input and standard output sent to `stdout`
    /// (a pipe by default), waiting for it on a thread of its own (see `offThePool`).
    static func run(_ arguments: [String], input: Data? = nil, stdout: FileHandle? = nil) async throws -> Run {
        try await offThePool("arvis") { try waitingRun(arguments, input: input, stdout: stdout) }
    }

    private static func waitingRun(_ arguments: [String], input: Data?, stdout: FileHandle?) throws -> Run {
        signal(SIGPIPE, SIG_IGN)  // arvis may stop reading input early, by design
        let process = Process()
        process.executableURL = binary  // each test is enabled only when it exists
        process.arguments = arguments
        let output = Pipe()
        // Standard error goes to a file, not a second pipe: a pipe read only after standard output
        // ends would stall a process that fills it first (a sanitizer's report at exit does).
        let errorFile = FileManager.default.temporaryDirectory.appending(path: "arvis-stderr-\(UUID().uuidString)")
        try Data().write(to: errorFile)
        defer { try? FileManager.default.removeItem(at: errorFile) }
        let error = try FileHandle(forWritingTo: errorFile)
        let standardInput = Pipe()
        process.standardOutput = stdout ?? output
        process.standardError = error
        process.standardInput = standardInput
        try process.run()
        try error.close()
        let writer = Thread {
            if let input { try? standardInput.fileHandleForWriting.write(contentsOf: input) }
            try? standardInput.fileHandleForWriting.close()
        }
        writer.start()
        let out = stdout == nil ? output.fileHandleForReading.readDataToEndOfFile() : Data()
        process.waitUntilExit()
        let errorReader = try FileHandle(forReadingFrom: errorFile)
        defer { try? errorReader.close() }
        let err = try errorReader.readToEnd() ?? Data()
        return Run(
            status: process.terminationStatus, output: String(decoding: out, as: UTF8.self),
            error: String(decoding: err, as: UTF8.self))
    }

    @Test(.enabled(if: binary != nil, "arvis is not built beside the tests"))
    func validatePrintsLocatedDiagnosticsAndExitsOne() async throws {
        let spec = try scratch.file("bad.json", #"{"text": {"content": "a", "fontStyle": {"size": 0}}}"#)
        let run = try await Self.run(["validate", spec.path])
        #expect(run.status == 1)
        #expect(
            run.output == "\(spec.path):1:49: error: text.fontStyle.size: a font size must be greater than 0, found 0\n"
        )
        #expect(run.error == "1 error, 0 warnings in 1 file\n")
    }

    @Test(.enabled(if: binary != nil, "arvis is not built beside the tests"))
    func versionAndMisspelledCommands() async throws {
        #expect(try await Self.run(["--version"]).output == ARVisCommand.version + "\n")
        let misspelled = try await Self.run(["rendr", "x.json"])
        #expect(misspelled.status == 2)
        #expect(misspelled.error.hasPrefix("error: unknown command 'rendr'; did you mean 'render'?"))
    }

    @Test(
        .enabled(if: binary != nil && FileManager.default.fileExists(atPath: "/dev/full"), "needs arvis and /dev/full"))
    func aFullDiskIsAnErrorNotACrash() async throws {
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        let run = try await Self.run(["schema"], stdout: full)
        #expect(run.status == 2)
        #expect(run.error == "error: cannot write to standard output: No space left on device\n")
    }

    @Test(.enabled(if: binary != nil, "arvis is not built beside the tests"))
    func endlessInputStopsAtTheLimit() async throws {
        let run = try await Self.run(
            ["validate", "--max-input-mb", "1", "-"], input: Data(repeating: UInt8(ascii: "["), count: 3_000_000))
        #expect(run.status == 2)
        #expect(
            run.error.hasPrefix(
                "error: cannot read standard input: it is over the 1 MB limit (raise the limit with --max-input-mb)"))
    }

    @Test(.enabled(if: binary != nil, "arvis is not built beside the tests"))
    func linksListsEveryLinkAndTheChainsTheyEmbed() async throws {
        let child = IARVisLink.percentEncoded(#"{"text": {"content": "[Getty](https://www.getty.edu)"}}"#)
        let spec = try scratch.file(
            "links.json",
            """
            {"text": {"content": "[a](iARVis://openComponent?json=\(child)&anchor=top&size=[600,400]) [b](iARVis://link?href=https%3A%2F%2Fa.example) [c](iARVis://nope)"}}
            """)
        let run = try await Self.run(["links", spec.path])
        #expect(run.status == 0)
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 4, "\(run.output)")
        #expect(
            lines[0]
                == "\(spec.path):1:22: openComponent embedded component {\"text\": …}, 55 bytes of JSON [anchor top, size [600.0, 400.0]] (text.content)"
        )
        #expect(lines[1] == "    1:22: web https://www.getty.edu (text.content)")
        #expect(lines[2] == "\(spec.path):1:22: link https://a.example (text.content)")
        #expect(lines[3].hasSuffix("invalid iARVis://nope (text.content)"))
        #expect(run.error == "4 links\n")
        let json = try await Self.run(["links", "--format", "json", spec.path])
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]])
        #expect(
            entries.first?["kind"] as? String == "openComponent"
                && (entries.first?["links"] as? [[String: Any]])?.count == 1)
    }

    @Test(.enabled(if: binary != nil, "arvis is not built beside the tests"))
    func renderSaysWhatItWrote() async throws {
        let output = try scratch.folder().appendingPathComponent("chart.png")
        let chart = Corpus.packageRoot.appendingPathComponent("Examples/laptop-benchmark-bar-chart.json").path
        let run = try await Self.run(["render", chart, "-o", output.path])
        #expect(run.status == 0)
        #expect(run.error.hasPrefix("wrote \(output.path) ("))
        #expect(run.error.hasSuffix(" px PNG)\n"))
        #expect(try await Self.run(["render", chart, "--quiet", "-o", output.path]).error.isEmpty)
    }
}

/// `arvis serve` as a process: it answers on its port, and SIGTERM stops it gracefully with exit 0.
struct ServeBinaryTests {
    let scratch = ScratchFolder("serve")

    @Test(.enabled(if: BinaryTests.binary != nil, "skipped: the arvis binary is not built"))
    func servesAndStopsOnSIGTERM() async throws {
        let port = Int.random(in: 20_000...60_000)
        let process = Process()
        process.executableURL = BinaryTests.binary
        process.arguments = ["serve", "--data", try scratch.folder().path, "--port", String(port)]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        var healthy = false
        for _ in 0..<100 where !healthy {
            try await Task.sleep(for: .milliseconds(100))
            if let (data, response) = try? await URLSession.shared.data(
                from: URL(string: "http://127.0.0.1:\(port)/health")!),
                (response as? HTTPURLResponse)?.statusCode == 200
            {
                healthy = String(decoding: data, as: UTF8.self).contains("\"ok\"")
            }
        }
        process.terminate()  // SIGTERM
        let ended = try await offThePool("arvis serve") {
            () -> (reason: Process.TerminationReason, status: Int32) in
            process.waitUntilExit()
            return (process.terminationReason, process.terminationStatus)
        }
        #expect(healthy, "no answer on port \(port)")
        #expect(ended.reason == .exit && ended.status == 0)
    }

    @Test func refusesPortsOutOfRange() async {
        #expect(await arvis(["serve", "--port", "0"]) == 2)
        #expect(await arvis(["serve", "--port", "70000"]) == 2)
    }

    @Test func refusesVideoOptionsThatCannotWork() async {
        #expect(await arvis(["serve", "--relay-only"]) == 2, "relaying needs a TURN server")
        #expect(await arvis(["serve", "--relay-only", "--ice-server", "stun:127.0.0.1:3478"]) == 2)
        #expect(await arvis(["serve", "--ice-server", "turn:127.0.0.1:3478"]) == 2, "TURN needs its secret")
        #expect(await arvis(["serve", "--ice-server", "http://turn.example"]) == 2)
        #expect(await arvis(["serve", "--direct-viewers", "2"]) == 2, "direct viewers are about the SFU")
        #expect(await arvis(["serve", "--sfu", "ws://127.0.0.1:8188"]) == 2, "Janus's HTTP API")
        #expect(await arvis(["serve", "--sfu", "http://127.0.0.1:8088/janus", "--direct-viewers", "4"]) == 2)
        #expect(await arvis(["serve", "--sfu", "http://127.0.0.1:1/janus"]) == 2, "no Janus answers there")
    }
}
