import ARVisSupport
import ARVisWire
import Testing

struct DatasetRowsTests {
    private func read(_ body: String, as contentType: String) throws -> [String] {
        try DatasetRows.read(Array(body.utf8), contentType: contentType)
    }

    @Test func theThreeFormsGiveTheSameRows() throws {
        let expected = [#"{"celsius":20.5,"time":"10:00"}"#, #"{"celsius":null,"time":"10:01"}"#]
        #expect(try read("time,celsius\n10:00,20.5\n10:01,\n", as: "text/csv") == expected)
        #expect(
            try read(
                "{\"time\": \"10:00\", \"celsius\": 20.5}\r\n\n  \n{\"time\": \"10:01\", \"celsius\": null}",
                as: "application/x-ndjson; charset=utf-8") == expected)
        #expect(
            try read(
                #"[{"time": "10:00", "celsius": 20.5}, {"time": "10:01", "celsius": null}]"#, as: "Application/JSON")
                == expected)
        #expect(
            try read("\u{1E}{\"time\": \"10:00\", \"celsius\": 20.5}\n", as: "application/json-seq") == [expected[0]])
    }

    /// U+2028 and U+0085 are line breaks to Swift but plain characters in a JSON string: a line holding
    /// one is one row, and the line numbers of errors count line feeds, blank lines included.
    @Test func onlyALineFeedEndsAJSONLine() throws {
        #expect(
            try read("{\"note\": \"a\u{2028}b\u{85}c\"}\n", as: "application/x-ndjson") == [
                "{\"note\":\"a\u{2028}b\u{85}c\"}"
            ])
        #expect {
            try read("{\"a\": 1}\n\n[1]\n", as: "application/x-ndjson")
        } throws: { error in
            (error as? RowError)?.message == "line 3 is not an object of column to value"
        }
    }

    @Test func aQuotedCSVCellKeepsCommasQuotesAndBreaks() throws {
        #expect(
            try read("name,note\n\"Oak, old\",\"said \"\"hi\"\"\nthen\"\n", as: "text/csv")
                == [#"{"name":"Oak, old","note":"said \"hi\"\nthen"}"#])
    }

    @Test(arguments: [
        ("text/plain", "a,b\n", RowError.Code.unsupportedMediaType, "send rows as"),
        ("text/csv", "a\n1,2\n", .invalidRow, "line 2 has 2 cells; the header names 1 columns"),
        ("text/csv", "a\n\"never ends\n", .invalidRow, "the quoted cell that starts on line 2 never ends"),
        ("application/json", "[{\"a\": [1]}]", .invalidRow, "row 1: \"a\" is a string of at most 1000 characters"),
        ("application/json", "{", .invalidRow, "the body is not JSON"),
        ("application/x-ndjson", "{\"\": 1}", .invalidRow, "line 1: a column name is 1 to 200 characters"),
    ])
    func aBodyThatIsNotRowsSaysWhereAndWhy(contentType: String, body: String, code: RowError.Code, reason: String) {
        #expect {
            try read(body, as: contentType)
        } throws: { error in
            guard let error = error as? RowError else { return false }
            return error.code == code && error.message.contains(reason)
        }
    }

    @Test func bytesThatAreNotUTF8AreRefused() {
        #expect(throws: RowError(.notUTF8, "the body is not UTF-8 text")) {
            try DatasetRows.read([0x61, 0xFF, 0x0A], contentType: "text/csv")
        }
    }

    @Test func aRowHoldsAtMost64Columns() throws {
        let columns = (0...DatasetRows.maximumColumns).map { "\"c\($0)\": \($0)" }
        let body = "{" + columns.joined(separator: ", ") + "}"
        #expect(throws: RowError.self) { try read(body, as: "application/x-ndjson") }
        #expect(try read("{" + columns.dropLast().joined(separator: ", ") + "}", as: "application/x-ndjson").count == 1)
    }

    /// Issue 51, item 4: 64 columns of 1 000 characters made 64 KB rows; a row is at most 8 KB.
    @Test func aRowHoldsAtMost8KB() throws {
        let text = String(repeating: "x", count: DatasetRows.maximumStringLength)
        let wide = "{" + (0..<9).map { "\"c\($0)\": \"\(text)\"" }.joined(separator: ", ") + "}"
        #expect {
            try read(wide, as: "application/x-ndjson")
        } throws: { error in
            (error as? RowError)?.message.contains("at most \(DatasetRows.maximumRowBytes)") == true
        }
        let narrow = "{" + (0..<7).map { "\"c\($0)\": \"\(text)\"" }.joined(separator: ", ") + "}"
        #expect(try read(narrow, as: "application/x-ndjson").count == 1)
    }
}
