public import Foundation

/// Finds the shared iARVis corpus and the project's examples for tests.
public enum Corpus {
    /// The package's root folder (found from this source file's location).
    public static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()

    /// `../shared/corpus/iarvis` beside the package, or `nil` when it is absent.
    public static let iarvisFolder: URL? = {
        let url = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus/iarvis")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }()

    /// Why corpus tests are skipped, or `nil` when the corpus is present.
    public static var absenceReason: String? {
        iarvisFolder == nil ? "the iARVis corpus (../shared/corpus) is absent; corpus tests skipped" : nil
    }

    /// Every JSON file of the corpus, sorted by path; empty when the corpus is absent.
    public static var files: [URL] { jsonFiles(under: iarvisFolder) }

    /// The team's own example specs in `Examples/`.
    public static var examples: [URL] {
        let folder = packageRoot.appendingPathComponent("Examples")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".json") || $0.hasSuffix(".yaml") }.sorted().map {
            folder.appendingPathComponent($0)
        }
    }

    /// The JSON files below `folder`, sorted.
    public static func jsonFiles(under folder: URL?) -> [URL] {
        guard let folder, let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        else { return [] }
        return walker.compactMap { $0 as? URL }.filter { $0.lastPathComponent.hasSuffix(".json") }.sorted {
            $0.path < $1.path
        }
    }
}
