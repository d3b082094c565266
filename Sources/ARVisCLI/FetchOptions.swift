import ARVisPipeline
import ARVisRender
import ArgumentParser
import Foundation

/// The options of commands that can load the pictures a spec shows.
struct FetchOptions: ParsableArguments {
    @Flag(help: "Load images and video posters and embed them: web URLs from public addresses only, 20 MB and 15 s per file.")
    var fetch = false

    @Option(name: .customLong("allow-files"), help: ArgumentHelp(
        "The folder local files may be read from (default: the spec's folder; none: no local files).", valueName: "dir"))
    var allowFiles: String?

    /// The loader for the spec at `specPath` (`-` is standard input, whose default is no local files).
    func loader(for specPath: String) -> SafeResourceLoader {
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
        guard fetch else { return [:] }
        let (resources, failures) = await loader(for: specPath).renderResources(references)
        report(failures)
        return resources
    }

    /// Says why each resource did not load.
    func report(_ failures: [PipelineError]) {
        for failure in failures { Console.error("warning: \(failure); a placeholder is drawn") }
    }
}

/// The options that raise or lower what one widget may draw.
struct LimitOptions: ParsableArguments {
    @Option(name: .customLong("max-cells"), help: "The most table cells one widget may draw.")
    var maximumCells = RenderLimits().maximumTableCells

    @Option(name: .customLong("max-marks"), help: "The most marks (bars, points …) one widget may draw.")
    var maximumMarks = RenderLimits().maximumMarks

    @Option(name: .customLong("max-splom-fields"), help: "The most fields of a scatter-plot matrix.")
    var maximumSplomFields = RenderLimits().maximumSplomFields

    var limits: RenderLimits {
        RenderLimits(maximumTableCells: maximumCells, maximumMarks: maximumMarks, maximumSplomFields: maximumSplomFields,
                     maximumSeriesRows: max(RenderLimits().maximumSeriesRows, maximumMarks))
    }

    func validate() throws {
        guard maximumCells >= 1, maximumMarks >= 1, maximumSplomFields >= 1 else {
            throw ValidationError("--max-cells, --max-marks and --max-splom-fields must be at least 1")
        }
    }
}
