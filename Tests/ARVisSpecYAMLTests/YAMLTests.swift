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
    /// is a float (summed as Yams sums it, within a few units of the last place of the nearest), with
    /// the warning other large integers get.
    @Test func baseSixtyIntegersReadAndOneTooLargeIsFlagged() throws {
        let exact = YAMLSpecReader.read(yaml: tableYAML("1:30, -1:30:00, 190:20:30, +1_0:00, 1:0:0:0"))
        #expect(exact.diagnostics.isEmpty)
        #expect(exact.document == SpecReader.read(json: tableJSON("90, -5400, 685230, 600, 216000")).document)
        let large = YAMLSpecReader.read(yaml: tableYAML("2002020020202002:0:0:0:0"))
        #expect(large.diagnostics.map(\.code) == [.inexactNumber])
        #expect(large.document == SpecReader.read(json: tableJSON("2.594617946181795e+22")).document)
    }

    /// Every integer form Yams's resolver tags reads as YAML 1.1 says, the 64-bit extremes exactly;
    /// an explicit tag makes a quoted scalar a number (`!!int "12"`, `!!float "1.5"`), as in other
    /// YAML readers, and a tagged text that is no integer stays text.
    @Test func integerFormsAndTaggedQuotedNumbersRead() throws {
        let forms = YAMLSpecReader.read(
            yaml: tableYAML(
                #"0x1F, -0o17, 017, 0b1_01, -0, 1_000, -9223372036854775808, 9223372036854775807, !!int "12", "#
                    + #"!!int '-0x10', !!float "1.5", !!float '-2'"#))
        #expect(forms.diagnostics.isEmpty)
        #expect(
            forms.document
                == SpecReader.read(
                    json: tableJSON(
                        "31, -15, 15, 5, 0, 1000, -9223372036854775808, 9223372036854775807, 12, -16, 1.5, -2.0")
                ).document)
        let texts = YAMLSpecReader.read(yaml: tableYAML(#"!!int 1e3, !!int "1.5", !!int 0x, !!int "09", !!int "+""#))
        #expect(texts.document == SpecReader.read(json: tableJSON(#""1e3", "1.5", "0x", "09", "+""#)).document)
    }

    /// Past 64 bits, an integer is a float, with a warning: the nearest one below 2⁶⁴ and for decimal
    /// and hexadecimal digits; past any float, it is refused, as in JSON.
    @Test func integersPastSixtyFourBitsAndPastAnyFloat() throws {
        let hex = YAMLSpecReader.read(yaml: tableYAML("0x1_0000_0000_0000_0000"))
        #expect(hex.diagnostics.map(\.code) == [.inexactNumber])
        #expect(hex.document == SpecReader.read(json: tableJSON("18446744073709551616")).document)
        // Each a float the digit-by-digit sum misses: the parsers' own rounding, or Double(UInt64).
        let nearest = YAMLSpecReader.read(
            yaml: tableYAML("77117949605732441491, 0x10000000000000801, 9223372036854775809, 0o1000000000000000002001"))
        #expect(nearest.diagnostics.map(\.code) == Array(repeating: .inexactNumber, count: 4))
        #expect(
            nearest.document
                == SpecReader.read(
                    json: tableJSON(
                        "77117949605732441491, 18446744073709553665, 9223372036854775809, 9223372036854776833")
                ).document)
        let huge = String(repeating: "9", count: 400)
        #expect(YAMLSpecReader.read(yaml: tableYAML(huge)).diagnostics.map(\.code) == [.numberOutOfRange])
        #expect(SpecReader.read(json: tableJSON(huge)).diagnostics.map(\.code) == [.numberOutOfRange])
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

/// A table spec whose one data column holds `values`, in YAML.
private func tableYAML(_ values: String) -> Data {
    Data("table:\n  configuration:\n    tableData:\n      data:\n        a: [\(values)]\n".utf8)
}

/// The same table spec, in JSON.
private func tableJSON(_ values: String) -> Data {
    Data(#"{"table": {"configuration": {"tableData": {"data": {"a": [\#(values)]}}}}}"#.utf8)
}
