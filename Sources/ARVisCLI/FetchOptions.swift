import ARVisPipeline
import ARVisRender
import ArgumentParser
import Foundation

/// The options of commands that can load the pictures a spec shows.
struct FetchOptions: ParsableArguments {
    @Flag(
        help:
            "Load images and video posters and embed them: web URLs from public addresses only, 20 MB and 15 s per file."
    )
    var fetch = false

    @Option(
        name: .customLong("allow-files"),
        help: ArgumentHelp(
            "The folder local files may be read from (default: the spec's folder; none: no local files).",
            valueName: "dir"))
    var allowFiles: String?

    /// The loader for the spec at `specPath` (`-` is standard input, whose default is no local
    /// files); `nil` without `--fetch`, when nothing is loaded.
    func loader(for specPath: String) -> SafeResourceLoader? {
        guard fetch else { return nil }
        let specFolder = specPath == "-" ? nil : (specPath as NSString).deletingLastPathComponent
        let folder = specFolder.map { $0.isEmpty ? "." : $0 }
        var policy = ResourcePolicy()
        switch allowFiles {
        case "none"?: policy.fileRoot = nil
        case let root?: policy.fileRoot = root
        case nil: policy.fileRoot = folder
        }
        return SafeResourceLoader(policy: policy, baseDirectory: folder ?? policy.fileRoot)
    }

    /// Loads `references` unless `--fetch` is off; each one that fails is reported and drawn as a placeholder.
    func resources(_ references: [String], for specPath: String) async -> [String: RenderOptions.Resource] {
        guard let loader = loader(for: specPath) else { return [:] }
        let (resources, failures) = await loader.renderResources(references)
        report(failures)
        return resources
    }

    /// Says why each resource did not load.
    func report(_ failures: [PipelineError]) {
        for failure in failures { Console.error("warning: \(failure); a placeholder is drawn") }
    }
}
