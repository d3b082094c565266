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
