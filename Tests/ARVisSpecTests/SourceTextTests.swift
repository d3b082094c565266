import Foundation
import Testing

@testable import ARVisSpec

struct SourceTextTests {
    @Test func batchLocationAgreesWithSingleLocation() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("ab é😀\n{}\"")
        for _ in 0..<50 {
            let text = String(
                (0..<Int.random(in: 0...300, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            )
            let bytes = Array(text.utf8)
            let source = SourceText(bytes)
            let offsets = (0..<20).map { _ in Int.random(in: 0...bytes.count, using: &generator) }
            let batch = source.lineAndColumn(ofEach: offsets)
            for (offset, location) in zip(offsets, batch) {
                let single = source.lineAndColumn(of: offset)
                #expect(location.line == single.line && location.column == single.column)
            }
        }
    }

    @Test func manyDuplicateKeysAreEachReportedAtTheirColumn() {
        let member = #""content": "x""#
        let text = #"{"text": {"# + Array(repeating: member, count: 20_000).joined(separator: ", ") + "}}"
        let duplicates = SpecReader.read(json: Data(text.utf8)).diagnostics.filter { $0.code == .duplicateKey }
        #expect(duplicates.count == 19_999)
        let stride = member.count + 2
        #expect(duplicates.last?.location.column == 11 + 19_999 * stride)
        #expect(duplicates.last?.hint?.hasPrefix("the first is at line 1, column 11") == true)
    }
}
