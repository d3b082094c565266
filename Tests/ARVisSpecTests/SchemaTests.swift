import ARVisSpec
import Foundation
import Testing

struct SchemaTests {
    @Test(arguments: [DocumentKind?.none] + DocumentKind.allCases.map(Optional.some))
    func schemaIsWellFormedDraft202012(_ kind: DocumentKind?) throws {
        let text = SpecSchema.json(for: kind)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["$schema"] as? String == "https://json-schema.org/draft/2020-12/schema")
        let definitions = try #require(object["$defs"] as? [String: Any])
        // Every reference resolves to a definition.
        for match in text.matches(of: /"#\/\$defs\/([^"]+)"/) {
            #expect(definitions[String(match.1)] != nil, "dangling $ref \(match.1)")
        }
    }

    @Test func schemaDescribesEveryComponentAndMark() {
        let text = SpecSchema.json()
        for name in Component.kindNames { #expect(text.contains("\"\(name)\"")) }
        for mark in MarkType.allCases { #expect(text.contains("\"\(mark.rawValue)\"")) }
        for anchor in AnchorPoint.allCases { #expect(text.contains("\"\(anchor.rawValue)\"")) }
        #expect(text.contains("\"description\""))
    }
}
