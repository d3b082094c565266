import ARVisSpec
import Foundation
import Testing

struct ParserTests {
    private func value(_ json: String) throws -> DataValue {
        let text = #"{"dataSources": [{"label": "default", "data": {"v": ["# + json + #"]}}], "components": []}"#
        guard case .chart(let chart) = try SpecReader.decode(Data(text.utf8)) else {
            throw SpecError(code: .unknownKind, message: "not a chart")
        }
        return chart.dataSources[0].data["v"]!.values[0]
    }

    @Test(arguments: [
        ("0", DataValue.int(0)), ("-12", .int(-12)), ("9223372036854775807", .int(Int.max)),
        ("-9223372036854775808", .int(Int.min)),
        ("2.0", .double(2)), ("1.5e3", .double(1500)), ("0.000123", .double(0.000123)), ("-0.5", .double(-0.5)),
        ("9223372036854775808", .double(9_223_372_036_854_775_808)), ("1e-7", .double(1e-7)),
        ("3.141592653589793238462643383279", .double(3.141592653589793)),
        ("2.2250738585072014e-308", .double(2.2250738585072014e-308)),
        ("\"a\\u00e9\\ud83d\\ude00\\n\"", .string("aé😀\n")), ("true", .bool(true)), ("null", .null),
    ])
    func readsScalarsExactly(_ text: String, _ expected: DataValue) throws {
        #expect(try value(text) == expected)
    }

    @Test func numbersMatchTheCLibraryOnManyRandomInputs() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let mantissa = Int.random(in: 1...999_999_999_999, using: &generator)
            let exponent = Int.random(in: -30...30, using: &generator)
            let text = "\(mantissa)e\(exponent)"
            #expect(try value(text) == .double(Double(text)!), "\(text)")
        }
    }

    @Test func trailingCommasAreAcceptedWithALocatedWarning() throws {
        let result = SpecReader.read(json: Data("{\"vStack\": {\"elements\": [\n  {\"spacer\": {}},\n]}}".utf8))
        #expect(result.document != nil)
        let warning = try #require(result.diagnostics.first)
        #expect(warning.severity == .warning && warning.code == .trailingComma)
        #expect(warning.location.line == 2 && warning.location.column == 17)
        #expect(warning.path == "vStack.elements")
    }

    @Test func columnsCountCharactersNotBytes() throws {
        let result = SpecReader.read(json: Data(#"{"text": {"content": "héllo", "x": 1}}"#.utf8))
        #expect(result.diagnostics.first?.location.column == 31)  // 32 in bytes: "é" is two
    }
}
