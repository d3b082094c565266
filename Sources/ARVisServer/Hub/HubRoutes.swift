import ARVisGraphics
import ARVisModel
import ARVisPipeline
import ARVisSpec
import ARVisStore
import ARVisSupport
import ARVisWire
import Foundation
import HTTPTypes
import Hummingbird

/// The spec hub: stable URLs under `/s/{project}/{name}` that a device opens without an account,
/// for specs of unlisted and public projects (or with a member's token).
struct HubRoutes: Sendable {
    let services: ServerServices
    let renderer: HubRenderer

    /// Registers the spec file on `router` and what is drawn on `drawing` (routes that know the
    /// client's address, which drawings are limited by).
    func register(on router: Router<ServerContext>, drawing: some RouterMethods<ServerContext>) {
        router.get(RouterPath(HubRead.specFileRoute)) { request, context in
            try await self.specFile(
                try context.parameters.require("name"), of: try context.parameters.require("project"), request: request,
                context: context)
        }
        drawing.get("/s/{project}/{name}") { request, context in try await self.page(request, context) }
        for format in ["png", "pdf"] {
            drawing.get("/s/{project}/marker.\(format)") { request, context in
                try await self.marker(request, context, pdf: format == "pdf")
            }
        }
        drawing.get(RouterPath(HubRead.widgetRoute)) { request, context in
            try await self.widget(
                try context.parameters.require("widget"), of: try context.parameters.require("name"),
                in: try context.parameters.require("project"), request: request, context: context)
        }
        drawing.get("/s/{project}/{name}/scene.json") { request, context in
            let (_, version) = try await self.latest(request, context)
            let openingLinks: Bool
            switch request.uri.queryParameters.get("links") {
            case nil, "closed": openingLinks = false
            case "open": openingLinks = true
            default: throw APIError.badRequest("links is open (with the widgets openComponent links open) or closed")
            }
            let scene = try await self.renderer.scene(.json, of: version, openingLinks: openingLinks)
            return Self.response(scene, etag: HubRenderer.tag(of: scene), request: request)
        }
        drawing.get("/s/{project}/{name}/scene.glb") { request, context in
            let (_, version) = try await self.latest(request, context)
            return Self.response(try await self.renderer.scene(.glb, of: version), etag: version.tag, request: request)
        }
        drawing.get("/s/{project}/{name}/scene.usdz") { request, context in
            let (access, version) = try await self.latest(request, context)
            let placed = try await self.galleryAssets(of: version, in: access)
            let key = placed.map { "\($0.reference)=\($0.asset.contentHash)" }.sorted().joined(separator: ",")
            let output = try await self.renderer.scene(.usdz, of: version, modelsKey: key) {
                await self.models(of: placed)
            }
            return Self.response(output, etag: HubRenderer.tag(of: output), request: request)
        }
        drawing.get("/s/{project}/{name}/qr.{format}") { request, context in try await self.qrCode(request, context) }
    }

    /// Answers `read` (for ``ServerResponder``, which reads it from the path without the router);
    /// widgets are drawn for the connection's address, as the router's drawing routes are.
    func answer(_ read: HubRead, request: Request, context: ServerContext) async throws -> Response {
        switch read {
        case .specFile(let project, let name):
            return try await specFile(name, of: project, request: request, context: context)
        case .widget(let project, let name, let file):
            return try await RequestAddress.$current.withValue(context.remoteAddress?.ipAddress) {
                try await widget(file, of: name, in: project, request: request, context: context)
            }
        }
    }

    /// The latest version of the spec `name` in the project `project`, as iARVis loads it (JSON).
    func specFile(_ name: String, of project: String, request: Request, context: ServerContext) async throws -> Response
    {
        let (_, version) = try await latest(name, in: project, token: context.token)
        return try SpecRoutes.response(version, request: request, asJSON: true)
    }

    /// The project access and latest version the request names.
    private func latest(_ request: Request, _ context: ServerContext) async throws -> (ProjectAccess, SpecVersion) {
        try await latest(
            try context.parameters.require("name"), in: try context.parameters.require("project"), token: context.token)
    }

    /// The project access and latest version of the spec `name` in the project `project`, for the
    /// bearer of `token`.
    private func latest(_ name: String, in project: String, token: String?) async throws -> (
        ProjectAccess, SpecVersion
    ) {
        let access = try await services.access(project, token: token)
        return (access, try await services.spec(name, in: access))
    }

    /// The placements' gallery assets, ready, by the `model` string that names them by URL
    /// (`/api/v1/projects/P/assets/ID/model.glb`, relative or absolute); nothing else is fetched.
    private func galleryAssets(of version: SpecVersion, in access: ProjectAccess) async throws -> [(
        reference: String, asset: Asset
    )] {
        guard case .environment(let environment) = try? version.document() else { return [] }
        var found: [(reference: String, asset: Asset)] = []
        for reference in Set((environment.placements ?? []).map(\.model)) {
            guard let id = Self.assetID(in: reference),
                let asset = try await services.store.asset(projectID: access.project.id, id: id),
                asset.status == .ready
            else { continue }
            found.append((reference, asset))
        }
        return found
    }

    /// The models of gallery assets, read from their GLB files (one that does not read is left out).
    private func models(of placed: [(reference: String, asset: Asset)]) async -> [String: Model] {
        var models: [String: Model] = [:]
        for (reference, asset) in placed {
            models[reference] = try? await services.library.model(of: asset, in: .glb)
        }
        return models
    }

    /// The gallery asset a placement's `model` names: a URL with `/assets/ID/`.
    static func assetID(in reference: String) -> String? {
        let lowered = reference.lowercased()
        guard let range = lowered.range(of: "/assets/") else { return nil }
        let rest = lowered[range.upperBound...].prefix(36)
        return UUID(uuidString: String(rest)).map { $0.uuidString.lowercased() }
    }

    /// A widget of the latest version of the spec `name` in the project `project`, named by `file`.
    func widget(
        _ file: String, of name: String, in project: String, request: Request, context: ServerContext
    ) async throws -> Response {
        let (access, version) = try await latest(name, in: project, token: context.token)
        var live = LiveRows.none
        switch request.uri.queryParameters.get("rows") {
        case nil, "spec": break
        case "live":
            if let widget = file.split(separator: ".").first.flatMap(WidgetReference.init) {
                live = try await liveRows(of: widget, in: version, projectID: access.project.id)
            }
        default: throw APIError.badRequest("rows is spec (the spec's data) or live (with the datasets' rows)")
        }
        return try await Self.widget(file, of: version, request: request, renderer: renderer, live: live)
    }

    /// The rows of the datasets a widget's charts follow, each within its window, as a device
    /// appends them (nothing for a widget that follows none).
    private func liveRows(of widget: WidgetReference, in version: SpecVersion, projectID: String) async throws
        -> LiveRows
    {
        var live = LiveRows.none
        for (name, link) in try renderer.datasetLinks(of: widget, in: version).sorted(by: { $0.key < $1.key }) {
            let stored = try await services.store.rows(
                projectID: projectID, dataset: name, last: link.rowLimit,
                since: link.seconds.map { Date(timeIntervalSinceNow: -$0) }, maximumBytes: DatasetRoutes.windowBytes)
            live.rows[name] = stored.map { Self.values(of: $0.json) }
            live.key += "/rows:\(name)@\(stored.last?.sequence ?? 0)x\(stored.count)"
        }
        return live
    }

    /// A stored row's values as a chart's cells (whole numbers as integers).
    private static func values(of json: String) -> LiveRow {
        guard case .object(let values)? = try? JSONDecoder().decode(JSONValue.self, from: Data(json.utf8)) else {
            return [:]
        }
        return values.mapValues { value in
            switch value {
            case .string(let text): .string(text)
            case .bool(let flag): .bool(flag)
            case .number(let number):
                number.rounded() == number && abs(number) < 1e15 ? .int(Int(number)) : .double(number)
            default: .null
            }
        }
    }

    /// A widget of `version` named by `file` — its number or scene id and a format: `1.svg`,
    /// `image1-widget2.html`, `3.png` (`?scale=` for PNG) — with its `ETag`.
    static func widget(
        _ file: String, of version: SpecVersion, request: Request, renderer: HubRenderer, live: LiveRows = .none
    ) async throws -> Response {
        let parts = file.split(separator: ".")
        guard parts.count == 2, let widget = WidgetReference(parts[0]),
            let format = WidgetFormat(fileExtension: parts[1])
        else {
            throw APIError.notFound(
                "a widget is named by its number from 1 or its scene id, and a format: 1.svg, 1.png or image1-widget1.html"
            )
        }
        var scale = 2.0
        if let text = request.uri.queryParameters.get("scale") {
            guard let value = Double(text), HubRenderer.scales.contains(value) else {
                throw APIError.invalid(.invalidScale, "scale is 1, 2 or 3")
            }
            scale = value
        }
        let output = try await renderer.widget(widget, format: format, scale: scale, of: version, live: live)
        let rows = live.key.isEmpty ? [] : [HubRenderer.hexPrefix(of: Array(live.key.utf8))]
        let tag = EntityTag(
            joining: [String(version.contentHash.prefix(16)), widget.key, format.rawValue, "\(scale)"] + rows)
        return response(output, etag: tag, request: request, policy: format == .png ? nil : HubPage.widgetPolicy)
    }

    private func qrCode(_ request: Request, _ context: ServerContext) async throws -> Response {
        let (access, version) = try await latest(request, context)
        guard let format = CodeFormat(fileExtension: try context.parameters.require("format")) else {
            throw APIError.notFound("a QR Code is qr.svg or qr.png")
        }
        let links = HubLinks(base: baseURL(request), project: access.project.slug, name: version.name)
        let text: String
        switch request.uri.queryParameters.get("target") ?? "iarvis" {
        case "iarvis": text = links.deepLink
        case "page": text = links.page
        case "json":
            guard let embedded = HubLinks.embeddedDeepLink(try version.document()) else {
                throw APIError.notFound(
                    "'\(version.name)' is not an environment small enough for a QR Code of its JSON: use target=iarvis")
            }
            text = embedded
        default: throw APIError.badRequest("target is iarvis, json or page")
        }
        let output = try await renderer.qrCode(text, png: format == .png)
        return Self.response(output, etag: HubRenderer.tag(of: output), request: request)
    }

    /// The project's marker: its QR code opens the project's planting in the Studio.
    private func marker(_ request: Request, _ context: ServerContext, pdf: Bool) async throws -> Response {
        let access = try await services.access(context)
        let slug = access.project.slug
        let text = "\(baseURL(request))/#/p/\(slug)/planting"
        let caption = [
            "ARVis marker of the project \(access.project.name) (\(slug))",
            String(
                format:
                    "Print at 100 %% (no scaling): the picture is %.0f mm wide. Lay it flat where the project's frame begins;",
                ProjectMarker.printedWidth * 1000),
            "its top edge is the frame's -z axis (forward), its centre the origin.",
        ]
        let output = try await renderer.marker(text, pdf: pdf ? caption : nil)
        return Self.response(output, etag: HubRenderer.tag(of: output), request: request)
    }

    private func page(_ request: Request, _ context: ServerContext) async throws -> Response {
        let (access, version) = try await latest(request, context)
        let links = HubLinks(base: baseURL(request), project: access.project.slug, name: version.name)
        let output = try await renderer.cached(
            Self.pageKey(of: version, in: access.project, links: links), kind: "page"
        ) {
            let names = try await renderer.widgetNames(of: version)
            let qr = try await renderer.qrCode(links.deepLink, png: false)
            let embedded = try HubLinks.embeddedDeepLink(version.document())
            let embeddedQR = try await embedded.asyncMap { try await renderer.qrCode($0, png: false) }
            let html = HubPage(
                projectName: access.project.name, version: version, links: links, widgetNames: names,
                qrSVG: String(decoding: qr.bytes, as: UTF8.self),
                embedded: embedded.map { ($0, String(decoding: embeddedQR?.bytes ?? [], as: UTF8.self)) }
            ).html
            return Output(bytes: Array(html.utf8), mediaType: "text/html; charset=utf-8")
        }
        return Self.response(
            output, etag: HubRenderer.tag(of: output), request: request, policy: HubPage.policy)
    }

    /// Where the phone page of `version` is kept: everything the page shows — the project (its id,
    /// slug and display name), the spec's name, version and content, and the base URL of its links.
    static func pageKey(of version: SpecVersion, in project: Project, links: HubLinks) -> String {
        [
            project.id, project.slug, project.name, version.name, String(version.version),
            HubRenderer.contentKey(of: version), links.base,
        ]
        .map { "\($0.utf8.count):\($0)" }.joined(separator: "/") + "/page"
    }

    private func baseURL(_ request: Request) -> String {
        HubLinks.baseURL(of: request, configuration: services.configuration)
    }

    /// A made file as a response with its `ETag`, or `304` when the client has it; `policy` is the
    /// Content-Security-Policy of a page or drawing.
    static func response(_ file: ServedFile, etag: EntityTag, request: Request, policy: String? = nil) -> Response {
        var headers: HTTPFields = [.eTag: etag.field, .cacheControl: "no-cache"]
        if EntityTagList.names(etag, inIfNoneMatch: request.headers[.ifNoneMatch]) {
            return Response(status: .notModified, headers: headers)
        }
        headers.append(HTTPField(name: .contentType, value: file.mediaType))
        SecurityHeaders.append(to: &headers, policy: policy)
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: file.body))
    }

    /// An output made for this request only, as ``response(_:etag:request:policy:)-(ServedFile,_,_,_)``.
    static func response(_ output: Output, etag: EntityTag, request: Request, policy: String? = nil) -> Response {
        response(ServedFile(output), etag: etag, request: request, policy: policy)
    }
}

/// The URLs of a spec on the hub.
struct HubLinks: Sendable {
    /// The address devices use: `--public-url`, else the request's `Host` over http.
    static func baseURL(of request: Request, configuration: ServerConfiguration) -> String {
        if let configured = configuration.publicURL {
            return configured.hasSuffix("/") ? String(configured.dropLast()) : configured
        }
        let host = request.head.authority ?? "\(configuration.host):\(configuration.port)"
        let isPlain = host.unicodeScalars.allSatisfy { $0.isASCIIAlphanumeric || ".-:[]".unicodeScalars.contains($0) }
        return "http://" + (isPlain && !host.isEmpty ? host : "\(configuration.host):\(configuration.port)")
    }

    /// Scheme, host and port, without a trailing slash.
    var base: String
    var project: String
    var name: String

    /// The phone page.
    var page: String { "\(base)/s/\(project)/\(name)" }
    /// The spec as iARVis loads it.
    var spec: String { page + ".json" }
    /// The deep link iARVis registered: `iARVis://openVisConfig?url=<spec>`.
    var deepLink: String { IARVisLink.openVisConfig(spec) }

    /// The most bytes a QR Code holds at the hub's error correction (medium, version 40).
    static let largestQRText = 2_331

    /// `iARVis://openVisConfig?json=<the environment>`, which today's iARVis app applies directly,
    /// when `document` is an environment whose link fits a QR Code; `nil` otherwise.
    static func embeddedDeepLink(_ document: SpecDocument) -> String? {
        guard case .environment = document else { return nil }
        let link = IARVisLink.openVisConfig(json: SpecWriter.compactJSON(document))
        return link.utf8.count <= largestQRText ? link : nil
    }
    /// The scene as a USDZ, for AR Quick Look.
    var sceneUSDZ: String { page + "/scene.usdz" }
    /// Google's Scene Viewer opening the scene's GLB in AR on Android (the page's GLB as fallback).
    var sceneViewer: String { SceneViewerLink.intent(model: page + "/scene.glb", title: name) }
}

extension HubRenderer {
    /// The first 16 hex digits of the SHA-256 of `bytes`, for `ETag`s of made files.
    static func hexPrefix(of bytes: [UInt8]) -> String {
        String(Digest.sha256Hex(bytes).prefix(16))
    }

    /// The strong tag of a made file: the first 16 hex digits of the SHA-256 of its bytes, hashed
    /// where they are (not copied out of its buffer).
    static func tag(of file: ServedFile) -> EntityTag {
        EntityTag(joining: [String(Digest.hex(file.body.withUnsafeReadableBytes(Digest.sha256)).prefix(16))])
    }

    /// The same of made bytes.
    static func tag(of bytes: [UInt8]) -> EntityTag { EntityTag(joining: [hexPrefix(of: bytes)]) }
}

/// Links that open a GLB in Google's Scene Viewer on Android (in AR where the phone can).
enum SceneViewerLink {
    /// An `intent://` URL for Scene Viewer with `model` (absolute) as its file and as the fallback.
    static func intent(model: String, title: String) -> String {
        let file = model.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        let name = title.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        return "intent://arvr.google.com/scene-viewer/1.0?file=\(file)&mode=ar_preferred&title=\(name)"
            + "#Intent;scheme=https;package=com.google.ar.core;action=android.intent.action.VIEW;S.browser_fallback_url=\(file);end;"
    }
}
