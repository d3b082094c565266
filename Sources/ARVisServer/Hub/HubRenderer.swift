import ARVisGraphics
import ARVisModel
import ARVisPipeline
import ARVisRender
import ARVisSpatial
import ARVisSpec
import ARVisSpecYAML
import ARVisStore
import ARVisSupport
import Foundation
import HTTPTypes
import NIOConcurrencyHelpers
import NIOCore

/// What the spec hub serves besides the spec: widgets, scenes and QR codes, each made once per
/// spec content and kept in a bounded cache (a version's content never changes, so its renders
/// never go stale).
///
/// Nothing is fetched: pictures a spec links to are drawn as placeholders, so a spec cannot make
/// the server reach other hosts or its own network. Drawing runs on the renders' ``WorkPool``, off
/// the server's tasks and bounded per client; only the cache is shared.
///
/// Every cached file is keyed by all that goes into it: a drawing by the spec's bytes and syntax
/// (and format and scale), a page also by its project, spec name, version and base URL.
struct HubRenderer: Sendable {
    /// The scales PNG widgets are drawn at: one cache entry each, so a scale cannot be varied to
    /// make every request a new render.
    static let scales: Set<Double> = [1, 2, 3]

    private let fonts: FontLibrary?
    private let cache: OutputCache
    /// Where drawings are made.
    let pool: WorkPool
    /// Where ARVis Studio's previews are drawn: apart, so an author's typing never holds up what
    /// phones open.
    let previewPool: WorkPool
    /// The largest output kept: larger specs cannot be previewed.
    var largestKept: Int { cache.largestOutput }

    /// - Parameters:
    ///   - capacity: the most bytes of output kept.
    ///   - pool: where drawings are made.
    init(
        fonts: FontLibrary?, capacity: Int = 128_000_000,
        pool: WorkPool = WorkPool(
            "renders", limits: .init(running: WorkPool.backgroundThreads, perClient: 8, waiting: 32))
    ) {
        previewPool = WorkPool(
            "previews", limits: .init(running: WorkPool.backgroundThreads, perClient: 4, waiting: 16))
        self.fonts = fonts
        cache = OutputCache(capacity: capacity)
        self.pool = pool
    }

    /// What a version's drawings depend on: its bytes and the syntax they are read in.
    static func contentKey(of version: SpecVersion) -> String {
        "\(version.contentHash).\(SpecSyntax(storedMediaType: version.mediaType).rawValue)"
    }

    /// Runs `work` on the renders' pool (or the previews') for the client of the request being handled.
    func drawing<T: Sendable>(preview: Bool = false, _ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await (preview ? previewPool : pool).run(client: RequestAddress.current, work)
    }

    /// A widget of a version, in `format` (`scale` pixels per point for PNG), with `live` rows
    /// appended to the charts that follow datasets.
    /// - Throws: ``APIError`` `404` when there is no such widget, `422` when it cannot be drawn.
    func widget(
        _ widget: WidgetReference, format: WidgetFormat, scale: Double, of version: SpecVersion, live: LiveRows = .none
    ) async throws -> ServedFile {
        let key = Self.widgetKey(widget.key, format: format, scale: scale, of: version) + live.key
        return try await cached(key, kind: "widget") {
            try await drawing {
                try encode(try draw(widget, of: version, rows: live.rows).drawing, format: format, scale: scale)
            }
        }
    }

    /// The datasets the charts of a widget follow, by name.
    func datasetLinks(of widget: WidgetReference, in version: SpecVersion) throws -> [String: DatasetLink] {
        switch try version.document() {
        case .environment(let environment):
            try configuration(widget, in: environment, of: version).widget.component.datasetLinks
        case .component(let component): component.datasetLinks
        case .chart(let chart): Component.chart(chart).datasetLinks
        }
    }

    /// One widget of `version`, drawn alone (a phone fetching each widget draws each once), with
    /// `rows` appended to its charts' live sources.
    private func draw(_ widget: WidgetReference, of version: SpecVersion, rows: [String: [LiveRow]]) throws
        -> RenderedWidget
    {
        let renderer = try Renderer(options: RenderOptions(), fonts: fonts)
        switch try version.document() {
        case .environment(let environment):
            var (name, found) = try configuration(widget, in: environment, of: version)
            found.component = found.component.appendingLiveRows(rows)
            return try renderer.render(found, name: name)
        case let document:
            guard widget == .number(1) || widget == .id(document.kind.rawValue) else {
                throw APIError.notFound("the spec '\(version.name)' is one widget: 1 or \(document.kind.rawValue)")
            }
            let live: SpecDocument =
                switch document {
                case .component(let component): .component(component.appendingLiveRows(rows))
                case .chart(let chart):
                    if case .chart(let drawn) = Component.chart(chart).appendingLiveRows(rows) {
                        .chart(drawn)
                    } else {
                        document
                    }
                case .environment: document
                }
            return try renderer.render(live)[0]
        }
    }

    /// The widget `widget` names in `environment`: by number, one of its widgets; by id, also a
    /// child widget its `openComponent?json=` links open.
    private func configuration(_ widget: WidgetReference, in environment: Environment, of version: SpecVersion) throws
        -> (name: String, widget: WidgetConfiguration)
    {
        switch widget {
        case .number(let number):
            let widgets = WidgetCatalog.widgets(in: environment)
            guard (1...widgets.count).contains(number) else {
                throw APIError.notFound(
                    "the spec '\(version.name)' has \(widgets.count) widget\(widgets.count == 1 ? "" : "s"), not \(number)"
                )
            }
            return widgets[number - 1]
        case .id(let id):
            let opened = environment.openingLinks { _ in nil }
            guard let found = WidgetCatalog.widgets(in: opened).first(where: { $0.name == id }) else {
                throw APIError.notFound("the spec '\(version.name)' has no widget '\(id)'")
            }
            return found
        }
    }

    /// Draws every widget of `version` in `format` at once (on the previews' pool) and keeps them, so
    /// the files a preview lists are served without drawing the spec again for each; returns their
    /// names and sizes in points.
    func drawAll(_ format: WidgetFormat, of version: SpecVersion, scale: Double = 2) async throws -> [(
        name: String, width: Double, height: Double
    )] {
        let widgets = try await drawing(preview: true) { try render(version) }
        // Only the files not kept yet are encoded (a preview draws again after every pause).
        var missing: [Int] = []
        for number in widgets.indices.map({ $0 + 1 })
        where cache.file(Self.widgetKey(String(number), format: format, scale: scale, of: version)) == nil {
            missing.append(number)
        }
        let encoded = try await drawing(preview: true) { [missing] in
            try missing.map { number in
                (number, try encode(widgets[number - 1].drawing, format: format, scale: scale))
            }
        }
        for (number, output) in encoded {
            _ = cache.remember(
                ServedFile(output), as: Self.widgetKey(String(number), format: format, scale: scale, of: version))
        }
        return widgets.map { ($0.name, $0.drawing.extent.width, $0.drawing.extent.height) }
    }

    /// Where a widget of `version` (by number or id) is kept in `format` at `scale`.
    private static func widgetKey(_ widget: String, format: WidgetFormat, scale: Double, of version: SpecVersion)
        -> String
    {
        "\(contentKey(of: version))/widgets/\(widget).\(format.rawValue)@\(scale)"
    }

    /// A widget's drawing as the file `format` names; a drawing too large for PNG is a `422`
    /// (``APIError/init(_:)``).
    private func encode(_ drawing: Drawing, format: WidgetFormat, scale: Double) throws -> Output {
        var warnings: [GraphicsError] = []
        return try format.encode(drawing, scale: scale, fonts: requireFonts, warnings: &warnings)
    }

    /// Keeps an unsaved spec for preview, with the renders and forgotten like them, under the
    /// SHA-256 of its syntax and bytes; `nil` when it is too large to keep.
    func keepPreview(_ body: [UInt8], syntax: SpecSyntax) async -> SpecVersion? {
        let id = Digest.sha256Hex(Array(syntax.mediaType.utf8) + [0] + body)
        guard body.count <= largestKept else { return nil }
        _ = cache.remember(ServedFile(Output(bytes: body, mediaType: syntax.mediaType)), as: "preview/\(id)")
        return Self.preview(id, body: body, mediaType: syntax.mediaType)
    }

    /// The unsaved spec kept under `id`, or `nil` once forgotten.
    func preview(_ id: String) async -> SpecVersion? {
        guard id.count == 64, id.allSatisfy(\.isHexDigit), let kept = cache.file("preview/\(id)") else {
            return nil
        }
        return Self.preview(id, body: kept.bytes, mediaType: kept.mediaType)
    }

    /// A kept preview as a version named `preview` whose content hash is its id.
    private static func preview(_ id: String, body: [UInt8], mediaType: String) -> SpecVersion {
        SpecVersion(
            name: "preview", version: 0, contentHash: id, mediaType: mediaType, author: nil, createdAt: Date(),
            body: body)
    }

    /// Every widget's name, for the phone page: read from the document, nothing drawn (the page's
    /// pictures are fetched, and drawn, one by one).
    func widgetNames(of version: SpecVersion) async throws -> [String] {
        WidgetDigest(try version.document()).ids
    }

    /// The placed scene of a spec as scene JSON, GLB or USDZ (widgets textured at 1 pixel per point).
    /// `models` gives the placements' models by their `model` string (gallery assets) and is called
    /// only when the scene is not cached; `modelsKey` names those files and which `model` string each
    /// stands for. With `openingLinks`, the scene also has the child widgets its
    /// `iARVis://openComponent?json=` links open, as `arvis scene --open-links` places them (`url=`
    /// components are not fetched).
    /// - Throws: ``APIError`` `422` when the spec is not an environment or cannot be exported.
    func scene(
        _ format: SceneFormat, of version: SpecVersion, openingLinks: Bool = false, modelsKey: String = "",
        models: @escaping @Sendable () async -> [String: Model] = { [:] }
    ) async throws -> ServedFile {
        let key = "\(Self.contentKey(of: version))/scene\(openingLinks ? "+links" : "").\(format.rawValue)/\(modelsKey)"
        return try await cached(key, kind: "scene") {
            try await export(format, of: version, openingLinks: openingLinks, models: models)
        }
    }

    private func export(
        _ format: SceneFormat, of version: SpecVersion, openingLinks: Bool,
        models: @escaping @Sendable () async -> [String: Model]
    ) async throws -> Output {
        guard case .environment(var environment) = try version.document() else {
            throw APIError.invalid(
                .notAnEnvironment, "the spec '\(version.name)' is a widget, not an environment: a scene needs targets")
        }
        if openingLinks { environment = environment.openingLinks { _ in nil } }
        var options = RenderOptions()
        options.resources = [:]
        let scene = await TexturedScene(environment, renderOptions: options)
        let name = version.name
        let placed = await models()
        let encode = { @Sendable () throws -> Output in
            do {
                return try scene.encode(as: format, scale: 1, models: placed)
            } catch {
                throw APIError.invalid(.exportFailed, "the scene of '\(name)' cannot be exported: \(error)")
            }
        }
        // Scene JSON is layout only, drawn nowhere: answered at once, never queued behind renders.
        return format == .json ? try encode() : try await drawing(encode)
    }

    /// A QR Code of `text` as SVG or PNG.
    func qrCode(_ text: String, png: Bool) async throws -> ServedFile {
        try await cached("qr/\(png ? "png" : "svg")/\(text)", kind: "qr") {
            try await drawing {
                do {
                    let code = try QRCode(encoding: text, errorCorrection: .medium)
                    return try code.encode(as: png ? .png : .svg, moduleSize: png ? 8 : 4, fonts: requireFonts)
                } catch let error as APIError { throw error } catch {
                    throw APIError.invalid(.qrFailed, "no QR Code for this link: \(error)")
                }
            }
        }
    }

    /// The file under `key`, made by `make` on a miss and kept.
    /// A project's marker saying `text` (``ProjectMarker``): a PNG 1 000 pixels square, or an A4 PDF
    /// page with it printed at ``ProjectMarker/printedWidth`` and `caption` under it.
    func marker(_ text: String, pdf caption: [String]?) async throws -> ServedFile {
        try await cached("marker/\(caption?.joined(separator: "\n") ?? "png")/\(text)", kind: "marker") {
            try await drawing {
                do {
                    let png = try PNGWriter(fonts: requireFonts(), background: .white).write(
                        ProjectMarker(text: text).drawing(side: 1000))
                    guard let caption else { return Output(bytes: png, mediaType: "image/png") }
                    let sheet = try PDFPictureSheet(png: png, width: ProjectMarker.printedWidth * 1000, lines: caption)
                    return Output(bytes: sheet.bytes, mediaType: "application/pdf")
                } catch let error as APIError { throw error } catch {
                    throw APIError.invalid(.qrFailed, "no marker for this link: \(error)")
                }
            }
        }
    }

    func cached(_ key: String, kind: String, _ make: () async throws -> Output) async throws -> ServedFile {
        if let hit = cache.file(key) { return hit }
        ServerMetrics.countRender(kind)
        return cache.remember(ServedFile(try await make()), as: key)
    }

    /// The spec's widgets, drawn; a widget past a render limit is a `422` (``APIError/init(_:)``).
    private func render(_ version: SpecVersion) throws -> [RenderedWidget] {
        try Renderer(options: RenderOptions(), fonts: fonts).render(try version.document())
    }

    private func requireFonts() throws -> FontLibrary {
        guard let fonts else {
            throw APIError(
                .serviceUnavailable, .fontsMissing,
                "the server has no fonts for PNG output (install fonts-dejavu-core)")
        }
        return fonts
    }
}

/// The live rows a widget is drawn with: by dataset name, oldest first, and what names them in the
/// cache (each dataset's newest row).
struct LiveRows: Sendable {
    var rows: [String: [LiveRow]]
    var key: String

    /// None: the widget as the spec has it.
    static let none = LiveRows(rows: [:], key: "")
}

/// A widget of a spec as the hub's URLs name it: by its number on the phone page (from 1), or by
/// its scene id (`image1-widget2`, also the child widgets links open).
enum WidgetReference: Sendable, Hashable {
    case number(Int)
    case id(String)

    /// `3` or `image1-widget2` (ids are letters, digits, `-` and `_`, at most 200), else `nil`.
    init?(_ text: Substring) {
        if text.count <= 6, let number = Int(text), number >= 1 {
            self = .number(number)
        } else if (1...200).contains(text.count),
            text.unicodeScalars.allSatisfy({ $0.isASCIIAlphanumeric || $0 == "-" || $0 == "_" }),
            text.unicodeScalars.first?.isASCIIAlphanumeric == true
        {
            self = .id(String(text))
        } else {
            return nil
        }
    }

    /// What the cache and `ETag`s call it.
    var key: String {
        switch self {
        case .number(let number): String(number)
        case .id(let id): "id-" + id
        }
    }
}

/// A made file as responses send it: its bytes in a buffer that every response shares as it is
/// (a cached widget PNG is not copied for each request), and its media type.
struct ServedFile: Sendable {
    /// The bytes.
    let body: ByteBuffer
    /// Such as `image/png`.
    let mediaType: String

    init(_ output: Output) {
        body = ByteBuffer(bytes: output.bytes)
        mediaType = output.mediaType
    }

    /// A copy of the bytes.
    var bytes: [UInt8] { Array(body.readableBytesView) }
}

/// Made files by key, the oldest forgotten beyond a number of bytes. Behind a lock rather than an
/// actor: a hit is a dictionary lookup, and a request that finds its file does not leave its thread.
final class OutputCache: Sendable {
    private struct State {
        var files: [String: ServedFile] = [:]
        var order: [String] = []
        var bytes = 0
    }

    private let state = NIOLockedValueBox(State())
    private let capacity: Int
    /// The largest file kept: a quarter of the capacity.
    let largestOutput: Int

    init(capacity: Int) {
        self.capacity = capacity
        largestOutput = capacity / 4
    }

    func file(_ key: String) -> ServedFile? { state.withLockedValue { $0.files[key] } }

    /// Keeps `file` under `key` (unless it is larger than ``largestOutput``) and returns it.
    func remember(_ file: ServedFile, as key: String) -> ServedFile {
        let size = file.body.readableBytes
        guard size <= largestOutput else { return file }
        return state.withLockedValue { state in
            if let kept = state.files[key] { return kept }
            state.files[key] = file
            state.order.append(key)
            state.bytes += size
            while state.bytes > capacity, !state.order.isEmpty {
                state.bytes -= state.files.removeValue(forKey: state.order.removeFirst())?.body.readableBytes ?? 0
            }
            return file
        }
    }
}
