import ARVisGraphics
import ARVisPipeline
import ARVisSpec
import ARVisSpecYAML
import ARVisStore
import ARVisSupport
import ARVisWire
import Foundation
import HTTPTypes
import Hummingbird

/// What ARVis Studio shows beside the editor, for a spec that is not saved:
/// - `POST /api/v1/preview` (signed in) reads the body (JSON or YAML, up to `--max-spec-mb`) and
///   answers its diagnostics and, when it has no errors, its kind and (unless `?draw=false`, the
///   quick read the editor makes on every pause in typing) the files of its preview;
/// - `GET /preview/{id}/widgets/{n}.{svg|html|png}`, `GET /preview/{id}/scene.glb` and the orbit
///   viewer of that scene, `GET /preview/{id}/scene`.
///
/// A preview is kept with the hub's renders (bounded, the oldest forgotten first) under the SHA-256
/// of its syntax and bytes: its URLs can be neither guessed nor enumerated, so they need no token,
/// which lets the Studio frame them.
struct PreviewRoutes: Sendable {
    let services: ServerServices
    let renderer: HubRenderer

    func register(on router: some RouterMethods<ServerContext>) {
        router.post("/api/v1/preview") { request, context in try await self.preview(request, context) }
        router.get("/preview/{preview}/widgets/{widget}") { request, context in
            try await HubRoutes.widget(
                try context.parameters.require("widget"), of: try await self.kept(context), request: request,
                renderer: self.renderer)
        }
        router.get("/preview/{preview}/scene.glb") { request, context in
            let version = try await self.kept(context)
            return HubRoutes.response(
                try await self.renderer.scene(.glb, of: version),
                etag: EntityTag(joining: [String(version.contentHash.prefix(16))]),
                request: request)
        }
        router.get("/preview/{preview}/scene") { request, context in
            let version = try await self.kept(context)
            guard case .environment = try version.document() else {
                throw APIError.invalid(
                    .notAnEnvironment, "this preview is a widget, not an environment: a scene needs targets")
            }
            let html = ScenePreviewPage(model: "/preview/\(version.contentHash)/scene.glb").html
            return HubRoutes.response(
                Output(bytes: Array(html.utf8), mediaType: "text/html; charset=utf-8"),
                etag: EntityTag(joining: [String(version.contentHash.prefix(16)), "page"]), request: request,
                policy: AssetViewerPage.policy)
        }
    }

    private func kept(_ context: ServerContext) async throws -> SpecVersion {
        guard let version = await renderer.preview(try context.parameters.require("preview")) else {
            throw APIError.notFound("this preview is no longer kept: edit the spec, or ask POST /api/v1/preview again")
        }
        return version
    }

    private func preview(_ request: Request, _ context: ServerContext) async throws -> Response {
        _ = try await services.requireAccount(token: context.token)
        let limit = services.configuration.maximumSpecBytes
        let body = try await request.bodyBytes(upTo: limit, orThrow: SpecRoutes.tooLarge(limit))
        guard let syntax = SpecSyntax(contentType: request.headers[.contentType], body: body) else {
            throw APIError(
                .unsupportedMediaType, .unsupportedMediaType, "send the spec as application/json or application/yaml")
        }
        let name = request.uri.queryParameters.get("name").flatMap { ItemName.isValid($0) ? $0 : nil } ?? "spec"
        let read = syntax.read(Data(body), file: name)
        let diagnostics = read.diagnostics.sortedByPosition
        var answer = PreviewAnswer(diagnostics: diagnostics)
        if let document = read.document, !diagnostics.containsErrors {
            answer.kind = document.kind.rawValue
            if request.uri.queryParameters.get("draw") != "false" {
                answer.preview = try await preview(of: document, body: body, syntax: syntax)
            }
        }
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"]
        SecurityHeaders.append(to: &headers)
        return Response(
            status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: JSONText.text(answer))))
    }

    /// What `POST /api/v1/preview` answers: the diagnostics and, for a spec without errors, its kind
    /// and (unless `draw=false`) what Studio shows of it.
    struct PreviewAnswer: Encodable {
        var diagnostics: [Diagnostic]
        var kind: String?
        var preview: Preview?
    }

    /// The widgets drawn (HTML and SVG) and the scene's viewer, or why they cannot be drawn.
    struct Preview: Encodable {
        /// A drawn widget's files and size in points.
        struct Widget: Encodable {
            var name, html, svg: String
            var width, height: Double
        }
        var id: String
        /// The scene viewer's address for an environment, else `null`.
        var scene: JSONValue
        var widgets: [Widget]
        var problem: String?
    }

    private func preview(of document: SpecDocument, body: [UInt8], syntax: SpecSyntax) async throws -> Preview {
        guard let version = await renderer.keepPreview(body, syntax: syntax) else {
            throw APIError(
                .contentTooLarge, .tooLarge,
                "a spec over \(renderer.largestKept / 1_000_000) MB is checked but not drawn for preview")
        }
        let base = "/preview/\(version.contentHash)"
        var preview = Preview(
            id: version.contentHash, scene: document.kind == .environment ? .string(base + "/scene") : .null,
            widgets: [])
        do {
            preview.widgets = try await renderer.drawAll(.html, of: version).enumerated().map { index, widget in
                Preview.Widget(
                    name: widget.name, html: "\(base)/widgets/\(index + 1).html",
                    svg: "\(base)/widgets/\(index + 1).svg", width: Self.points(widget.width),
                    height: Self.points(widget.height))
            }
        } catch let error as APIError {
            preview.problem = error.message
        }
        return preview
    }

    /// A size in points to a tenth (0 for one that is not finite).
    private static func points(_ value: Double) -> Double {
        value.isFinite ? (value * 10).rounded() / 10 : 0
    }
}

/// The orbit viewer of a preview's scene, framed by ARVis Studio: the scene's GLB drawn by `/viewer.js`.
struct ScenePreviewPage {
    /// The GLB's path.
    var model: String

    var html: String {
        PageTemplate.head(title: "Scene preview", style: Self.style)
            + Self.page.render(["model": model.xmlEscaped])
    }

    /// The page after its head (`Web/Templates/scene-preview.html`).
    private static let page = PageTemplate("scene-preview.html")
    private static let style = PageTemplate.style("scene-preview.css")
}
