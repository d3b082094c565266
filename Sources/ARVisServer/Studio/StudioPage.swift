import ARVisGraphics
import ARVisPipeline
import ARVisSpec
import Foundation
import HTTPTypes
import Hummingbird

/// ARVis Studio, the browser app at `/`: a page that loads its style and ES modules from `/studio/`
/// (`Web/Files/studio/`) and runs on the API alone. It fetches nothing from outside the server, except the
/// planting map's tiles (``ServerConfiguration/mapTiles``) when the author turns them on.
struct StudioPage: Sendable {
    /// The map tile URL template, or `nil` for the metric grid only.
    var mapTiles: String?

    /// The origin of the tiles (`https://tile.openstreetmap.org`), for the page's policy.
    var tileOrigin: String? { mapTiles.flatMap(ServerConfiguration.mapTileOrigin) }

    /// Scripts, styles, streams and frames from the server; pictures also from the tile server; not framed.
    var policy: String {
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data: blob:\(tileOrigin.map { " " + $0 } ?? ""); "
            + "frame-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    }

    var html: String {
        Self.page.render(["mapTiles": tileOrigin == nil ? "" : (mapTiles ?? "").xmlEscaped])
    }

    /// The page (`Web/Templates/studio.html`): its one script, the module `/studio/app.js`, imports
    /// the others.
    private static let page = PageTemplate("studio.html")

    /// The JSON Schema of specs (`arvis schema`), made on the first request for it.
    private static let schema = Output(
        bytes: Array(SpecSchema.json().utf8), mediaType: "application/schema+json")
    private static let schemaTag = HubRenderer.tag(of: schema.bytes)

    /// `GET /`, and `GET /schema.json`: the JSON Schema of specs, which the editor completes keys
    /// and values from.
    static func register(on router: Router<ServerContext>, configuration: ServerConfiguration) {
        router.get("/schema.json") { request, _ in HubRoutes.response(schema, etag: schemaTag, request: request) }
        let page = StudioPage(mapTiles: configuration.mapTiles)
        let html = page.html
        let policy = page.policy
        router.get("/") { _, _ in
            var headers: HTTPFields = [.contentType: "text/html; charset=utf-8", .cacheControl: "no-cache"]
            SecurityHeaders.append(to: &headers, policy: policy)
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
        }
    }
}
