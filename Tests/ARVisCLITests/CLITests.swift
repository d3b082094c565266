import ARVisCLI
import ARVisTestSupport
import Foundation
import Testing

/// Drives the `arvis` command in-process and checks exit codes and file output.
struct CLITests {
    let scratch = ScratchFolder("cli")

    private func temporaryFile(_ name: String, _ text: String) throws -> String { try scratch.file(name, text).path }

    @Test func validateExitCodes() async throws {
        let good = try temporaryFile("good.json", #"{"spacer": {}}"#)
        let bad = try temporaryFile("bad.json", #"{"spacer": 1}"#)
        #expect(await arvis(["validate", good]) == 0)
        #expect(await arvis(["validate", good, bad]) == 1)
        #expect(await arvis(["validate", "/nonexistent/spec.json"]) == 2)
        #expect(await arvis(["validate", "--format", "xml", good]) == 2)
        #expect(await arvis(["validate"]) == 2)
        #expect(await arvis(["validate", "--kind", "chart", good]) == 1)
    }

    @Test func strictTurnsWarningsIntoErrors() async throws {
        let file = try temporaryFile("w.json", #"{"text": {"content": "a", "colour": "red"}}"#)
        #expect(await arvis(["validate", file]) == 0)
        #expect(await arvis(["validate", "--strict", file]) == 1)
    }

    @Test func fmtWriteIsIdempotentAndKeepsTheValue() async throws {
        let file = try temporaryFile("f.json", #"{"vStack":{"elements":[{"text":{"content":"a"}},],"spacing":4}}"#)
        #expect(await arvis(["fmt", "--write", file]) == 0)
        let once = try String(contentsOfFile: file, encoding: .utf8)
        #expect(
            once
                == "{\n  \"vStack\": {\n    \"spacing\": 4,\n    \"elements\": [\n      {\n        \"text\": {\n          \"content\": \"a\"\n        }\n      }\n    ]\n  }\n}\n"
        )
        #expect(await arvis(["fmt", "--write", file]) == 0)
        #expect(try String(contentsOfFile: file, encoding: .utf8) == once)
    }

    @Test func fmtWriteKeepsPermissionsAndWritesThroughLinks() async throws {
        let file = try temporaryFile("private.json", #"{"spacer":{}}"#)
        defer { try? FileManager.default.removeItem(atPath: file) }
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file)
        let link = file + ".link.json"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: file)
        defer { try? FileManager.default.removeItem(atPath: link) }
        #expect(await arvis(["fmt", "--write", "--quiet", link]) == 0)
        let attributes = try FileManager.default.attributesOfItem(atPath: file)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == file)
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "{\n  \"spacer\": {}\n}\n")
        let folder = (file as NSString).deletingLastPathComponent
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.contains(".arvis-") }
        #expect(leftovers.isEmpty)
    }

    @Test func fmtRefusesToDropYAMLComments() async throws {
        let commented = try temporaryFile("c.yaml", "# keep this\nspacer: {}   # and this\n")
        defer { try? FileManager.default.removeItem(atPath: commented) }
        #expect(await arvis(["fmt", "--write", commented]) == 1)
        #expect(try String(contentsOfFile: commented, encoding: .utf8).hasPrefix("# keep this"))
        let hashes = try temporaryFile(
            "h.yaml", "text:\n  content: \"Item #1 # not a comment\"\n  fontStyle: {size: 12, color: '#ff0000'}\n")
        defer { try? FileManager.default.removeItem(atPath: hashes) }
        #expect(await arvis(["fmt", "--write", "--quiet", hashes]) == 0)
        #expect(try String(contentsOfFile: hashes, encoding: .utf8).contains("Item #1 # not a comment"))
    }

    @Test func fmtRefusesToDropUnknownKeys() async throws {
        let file = try temporaryFile("u.json", #"{"text": {"content": "a", "note": "keep me"}}"#)
        #expect(await arvis(["fmt", "--write", file]) == 1)
        #expect(try String(contentsOfFile: file, encoding: .utf8).contains("keep me"))
    }

    @Test func helpAndSchemaSucceed() async {
        #expect(await arvis(["--help"]) == 0)
        #expect(await arvis(["validate", "--help"]) == 0)
        #expect(await arvis(["schema", "--kind", "chart"]) == 0)
        #expect(await arvis(["schema", "--kind", "widget"]) == 2)
    }

    @Test func convertRejectsUnknownSyntax() async throws {
        let file = try temporaryFile("c.json", #"{"spacer": {}}"#)
        #expect(await arvis(["convert", "--to", "yaml", file]) == 0)
        #expect(await arvis(["convert", "--to", "toml", file]) == 2)
    }
}
