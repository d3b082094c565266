import ARVisSpec
import ARVisSpecYAML
import ARVisTestSupport
import Foundation
import Testing

struct YAMLTests {
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
        #expect(YAMLSpecReader.read(yaml: Data(aliases.utf8)).diagnostics.first?.message == "YAML aliases are not supported")
        #expect(YAMLSpecReader.read(yaml: Data("vStack: [".utf8)).diagnostics.first?.code == .syntax)
        #expect(YAMLSpecReader.read(yaml: Data([0x61, 0x3A, 0x20, 0xFF])).diagnostics.first?.code == .encoding)
    }
}
