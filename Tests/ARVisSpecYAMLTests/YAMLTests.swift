import ARVisSpec
import ARVisSpecYAML
import ARVisTestSupport
import Foundation
import Testing

struct YAMLTests {
    /// Invisible and unusual characters inside strings survive JSON → YAML → JSON unchanged.
    @Test(arguments: ["a\u{FEFF}b", "\u{FEFF}", "tab\tand\u{0}nul", "line\u{2028}sep", "emoji 👍🏽", "\\ \" '"])
    func unusualStringsRoundTrip(text: String) throws {
        let document = SpecDocument.component(.text(Component.Text(text)))
        let yaml = try YAMLSpecWriter.yaml(document)
        let back = try YAMLSpecReader.decode(Data(yaml.utf8))
        #expect(back == document)
        #expect(try SpecReader.decode(Data(SpecWriter.json(back).utf8)) == document)
    }

    /// A whole number beyond 64 bits is read as the nearest float, in JSON and YAML alike, with a
    /// warning that says so: never turned silently into a float or a string.
    @Test func integersBeyondSixtyFourBitsAreFlagged() throws {
        let json = SpecReader.read(
            json: Data(#"{"table": {"configuration": {"tableData": {"data": {"a": [18446744073709551615]}}}}}"#.utf8))
        #expect(json.diagnostics.map(\.code) == [.inexactNumber])
        let yaml = YAMLSpecReader.read(
            yaml: Data(
                "table:\n  configuration:\n    tableData:\n      data:\n        a: [18446744073709551615]\n".utf8))
        #expect(yaml.diagnostics.map(\.code) == [.inexactNumber])
        #expect(json.document == yaml.document)
        #expect(
            SpecReader.read(
                json: Data(#"{"table": {"configuration": {"tableData": {"data": {"a": [9223372036854775807]}}}}}"#.utf8)
            ).diagnostics.isEmpty)
    }

    /// YAML 1.1 base-60 integers read as Yams reads them (`190:20:30` is 685 230); one past 64 bits
    /// is the nearest float, with the warning other large integers get.
    @Test func baseSixtyIntegersReadAndOneTooLargeIsFlagged() throws {
        func table(_ values: String) -> String {
            "table:\n  configuration:\n    tableData:\n      data:\n        a: [\(values)]\n"
        }
        func json(_ values: String) -> Data {
            Data(#"{"table": {"configuration": {"tableData": {"data": {"a": [\#(values)]}}}}}"#.utf8)
        }
        let exact = YAMLSpecReader.read(yaml: Data(table("1:30, -1:30:00, 190:20:30, +1_0:00, 1:0:0:0").utf8))
        #expect(exact.diagnostics.isEmpty)
        #expect(exact.document == SpecReader.read(json: json("90, -5400, 685230, 600, 216000")).document)
        let large = YAMLSpecReader.read(yaml: Data(table("2002020020202002:0:0:0:0").utf8))
        #expect(large.diagnostics.map(\.code) == [.inexactNumber])
        #expect(large.document == SpecReader.read(json: json("2.594617946181795e+22")).document)
    }

    /// Found by fuzzing (docs/fuzzing.md): Yams's own reading of a base-60 integer past 64 bits
    /// trapped on the overflow.
    @Test func aBaseSixtyIntegerPastSixtyFourBitsDoesNotTrap() throws {
        let finding = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Findings/yaml-base-sixty-overflow.yaml")
        let result = YAMLSpecReader.read(yaml: try Data(contentsOf: finding))
        #expect(result.diagnostics.map(\.code).contains(.inexactNumber))
    }

    @Test(arguments: Corpus.files + Corpus.examples.filter { $0.pathExtension == "json" })
    func jsonToYAMLAndBackIsLossless(_ file: URL) throws {
        let document = try SpecReader.decode(try Data(contentsOf: file))
        let yaml = try YAMLSpecWriter.yaml(document)
        #expect(try YAMLSpecReader.decode(Data(yaml.utf8)) == document)
    }

    @Test func yamlDiagnosticsAreLocated() throws {
        let yaml = "vStack:\n  alignment: top\n  elements: []\n"
        let error = try #require(YAMLSpecReader.read(yaml: Data(yaml.utf8), file: "w.yaml").diagnostics.first)
        #expect(error.location == SourceLocation(file: "w.yaml", line: 2, column: 14))
        #expect(error.path == "vStack.alignment")
    }

    @Test func stringsThatLookLikeNumbersStayStrings() throws {
        let document = SpecDocument.component(.text(Component.Text("123")))
        let yaml = try YAMLSpecWriter.yaml(document)
        #expect(try YAMLSpecReader.decode(Data(yaml.utf8)) == document)
    }

    @Test func hostileYAMLIsRefusedCleanly() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(YAMLSpecReader.read(yaml: Data(deep.utf8)).diagnostics.first?.code == .depthLimit)
        let aliases = "a: &x [1]\nb: *x\n"
        #expect(
            YAMLSpecReader.read(yaml: Data(aliases.utf8)).diagnostics.first?.message == "YAML aliases are not supported"
        )
        #expect(YAMLSpecReader.read(yaml: Data("vStack: [".utf8)).diagnostics.first?.code == .syntax)
        #expect(YAMLSpecReader.read(yaml: Data([0x61, 0x3A, 0x20, 0xFF])).diagnostics.first?.code == .encoding)
    }
}
