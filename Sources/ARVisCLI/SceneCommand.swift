import ARVisGraphics
import ARVisModel
import ARVisPipeline
import ARVisRender
import ARVisSpatial
import ARVisSpec
import ARVisSupport
public import ArgumentParser
import Foundation

/// `arvis scene`: the environment laid out in 3D, as scene JSON, glTF or GLB.
struct SceneCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scene",
        abstract: "Lay an environment out in 3D and write it as scene JSON, glTF 2.0, GLB or USDZ.",
        discussion: """
            Every target becomes a node (images as quads), every widget a quad placed with iARVis's \
            geometry (auto widgets never overlap), placements and annotations nodes at their poses. \
            scene.json lists {id, kind, parent, transform (16 numbers, column-major, world), size [w, h] \
            in metres for quads, asset, text, anchor}; a quad lies in its node's local XY plane, centred \
            on the origin, facing +Z. glTF and GLB texture each widget with its PNG render.

            Examples:
              arvis scene Examples/two-targets-environment.json -o scene.json
              arvis scene museum.json --viewpoint 0,1.6,2.5 --fetch -o museum.glb
              arvis scene example1.json --open-links -o chained.usdz
            """)

    /// The pipeline's scene formats, named on the command line.
    typealias OutputFormat = SceneFormat

    @OptionGroup var reading: ReadingOptions

    @Option(
        name: .customLong("target-size"),
        help: "Width×height in metres of image targets without a physicalWidth, e.g. 0.42x0.3 (default 0.2x0.2).")
    var targetSize: String?

    @Option(help: "Where the viewer stands, x,y,z in metres: auto widgets and object faces turn towards it.")
    var viewpoint: String?

    @Option(help: "Output format: json, gltf, glb or usdz (default: from the -o extension, else json).")
    var format: OutputFormat?

    @Option(help: "Pixels per point of the widget textures.")
    var scale = 1.0

    @Flag(
        name: .customLong("open-links"),
        help:
            "Add the widgets the widgets' iARVis://openComponent links open, as iARVis's \"Open in AR\" does: children of the widget that links to them, placed by the link's anchor, relativePosition and size (chains followed 8 deep; url= components need --fetch)."
    )
    var openLinks = false

    @OptionGroup var fetching: FetchOptions

    @OptionGroup var limiting: LimitOptions

    @OptionGroup var reporting: ReportingOptions

    @Option(name: .shortAndLong, help: "The output file (- or nothing is standard output for JSON and glTF).")
    var output: String?

    @Argument(help: "The environment spec (JSON or YAML).")
    var file: String

    func validate() throws {
        if let output, output != "-", format == nil, OutputFormat(path: output) == nil {
            throw ValidationError(
                "-o \(output): scene writes .json, .gltf, .glb or .usdz files; give one of those or --format")
        }
        _ = try parsedTargetSize()
        _ = try parsedViewpoint()
        guard scale >= 0.25, scale <= 4 else { throw ValidationError("--scale must be between 0.25 and 4") }
    }

    private func parsedTargetSize() throws -> SIMD2<Double>? {
        guard let targetSize else { return nil }
        let parts = targetSize.lowercased().split(separator: "x").compactMap { Double($0) }
        guard parts.count == 2, parts.allSatisfy({ $0 > 0 && $0 <= SpecLimits.largestPhysicalSize }) else {
            throw ValidationError(
                "--target-size is WIDTHxHEIGHT in metres, each above 0 and at most \(Int(SpecLimits.largestPhysicalSize)), such as 0.42x0.3; got \(targetSize)"
            )
        }
        return SIMD2(parts[0], parts[1])
    }

    private func parsedViewpoint() throws -> Vec3? {
        guard let viewpoint else { return nil }
        let parts = viewpoint.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 3, parts.allSatisfy({ abs($0) <= SpecLimits.largestCoordinate }) else {
            throw ValidationError(
                "--viewpoint is x,y,z in metres, each within ±\(Int(SpecLimits.largestCoordinate)), such as 0,1.6,2.5; got \(viewpoint)"
            )
        }
        return Vec3(parts[0], parts[1], parts[2])
    }

    private var resolvedFormat: OutputFormat {
        format ?? output.flatMap { OutputFormat(path: $0) } ?? .json
    }

    /// `environment` with the child widgets its links open; `url=` components fetched with the safe loader.
    private func withLinkedWidgets(_ environment: Environment) async -> Environment {
        var fetched: [String: [UInt8]] = [:]
        if let loader = fetching.loader(for: file) {
            for url in environment.linkedComponentURLs {
                do { fetched[url] = try await loader.load(url) } catch { fetching.report([error]) }
            }
        }
        return environment.openingLinks { fetched[$0] }
    }

    func run() async throws {
        let document = try SpecInput.document(at: file, options: reading)
        guard case .environment(var environment) = document else {
            throw CommandFailure.usage(
                "\(file) is a \(document.kind.rawValue), not an environment: a scene needs targets")
        }
        if openLinks { environment = await withLinkedWidgets(environment) }
        var options = RenderOptions()
        options.limits = limiting.limits
        let textured = await TexturedScene(
            environment, loader: fetching.loader(for: file),
            targetSize: try parsedTargetSize(), viewpoint: try parsedViewpoint(), renderOptions: options)
        fetching.report(textured.failures)
        let scene = textured.graph
        if resolvedFormat != .json {
            reporting.progress("rendering the textures of \(scene.nodes.filter { $0.kind == .widget }.count) widgets…")
        }
        var models: [String: Model] = [:]
        if resolvedFormat == .usdz, let loader = fetching.loader(for: file) {
            let placed = await textured.placementModels(loader: loader)
            fetching.report(placed.failures)
            models = placed.models
        }
        let data = Data(
            try textured.encode(as: resolvedFormat, scale: scale, models: models).bytes)
        guard let output, output != "-" else {
            guard (resolvedFormat != .glb && resolvedFormat != .usdz) || isatty(STDOUT_FILENO) == 0 else {
                throw CommandFailure.usage(
                    "\(resolvedFormat.rawValue.uppercased()) output needs -o FILE (or a redirect): it is binary")
            }
            try Console.write(data)
            return
        }
        let quads = scene.nodes.filter { $0.size != nil }.count
        try reporting.save(
            data, to: output, what: "\(scene.nodes.count) nodes, \(quads) quads, \(resolvedFormat.rawValue)")
    }
}

extension SceneFormat: ExpressibleByArgument {}
