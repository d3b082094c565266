import Testing

@testable import ARVisSpec

struct DatePatternTests {
    private func parse(_ pattern: String, _ text: String) throws -> Double? {
        try DatePattern.compile(pattern).get().parse(text)
    }

    @Test func parsesCommonPatternsDeterministically() throws {
        #expect(try parse("yyyy-MM-dd", "1970-01-02") == 86_400)
        #expect(try parse("yyyy-MM-dd", "2000-03-01") == 951_868_800)
        #expect(try parse("yyyy-MM-dd'T'HH:mm:ssZZZZZ", "2022-09-28T12:00:00+02:00") == 1_664_359_200)
        #expect(try parse("MM/dd/yyyy", "02/29/2024") == 1_709_164_800)
        #expect(try parse("MMMM d, yyyy", "April 13, 1860") == (try parse("yyyy-MM-dd", "1860-04-13")))
        #expect(try parse("YYYY", "1880") == (try parse("yyyy-MM-dd", "1880-01-01")))
        #expect(try parse("yyyyMMdd", "20240105") == (try parse("yyyy-MM-dd", "2024-01-05")))
    }

    @Test func rejectsImpossibleDates() throws {
        #expect(try parse("yyyy-MM-dd", "2020-13-01") == nil)
        #expect(try parse("yyyy-MM-dd", "2023-02-29") == nil)
        #expect(try parse("yyyy-MM-dd", "2020-01-01x") == nil)
        #expect(try parse("HH:mm", "24:00") == nil)
    }

    @Test func reportsUnquotedLetters() {
        guard case .failure(let problem) = DatePattern.compile("yyyy-MM-ddTHH") else {
            Issue.record("compiled")
            return
        }
        #expect(problem.message == "'T' is not a date field letter")
    }

    @Test func detectsIARVisBuiltInPatterns() {
        #expect(DatePattern.detect("1949-11-19")?.pattern == "yyyy-MM-dd")
        #expect(DatePattern.detect("2022-08-22 10:30")?.pattern == "yyyy-MM-dd HH:mm")
        #expect(DatePattern.detect("MacBook Pro") == nil)
        #expect(DatePattern.detect("12") == nil)
    }
}

struct DateMatchingPropertyTests {
    @Test func matchesAgreesWithParseOnRandomText() throws {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("0123456789-/: TZ+apmAPMJanFebDec,")
        let patterns = try [
            "yyyy-MM-dd", "YYYY", "MM/dd/yyyy", "yyyy-MM-dd HH:mm", "MMM d, yyyy", "h:mm a", "yyyyMMdd", "yyyy-DDD",
        ]
        .map { try DatePattern.compile($0).get() }
        for _ in 0..<5000 {
            let text = String(
                (0..<Int.random(in: 0...12, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
            for pattern in patterns {
                #expect(pattern.matches(text) == (pattern.parse(text) != nil), "\(pattern.pattern) \(text)")
            }
        }
        let iso = try DatePattern.compile("yyyy-MM-dd").get()
        #expect(iso.matches("2024-02-29") && !iso.matches("2023-02-29") && !iso.matches("2023-00-10"))
    }

    @Test(arguments: [
        DataValue.int(0), .int(-7), .int(1880), .int(Int.max), .int(Int.min), .double(1.5), .double(2), .bool(true),
        .string("1949-11-19"), .string("é"),
    ])
    func utf8TextIsTheTextsBytes(_ value: DataValue) {
        #expect(value.withUTF8Text { Array($0) } == value.text.map { Array($0.utf8) })
        #expect(DataValue.null.withUTF8Text { Array($0) } == nil)
    }
}
