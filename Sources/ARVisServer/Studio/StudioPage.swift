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
        let tiles = tileOrigin == nil ? "" : (mapTiles ?? "").xmlEscaped
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="arvis-map-tiles" content="\(tiles)">
            <link rel="icon" href="data:,">
            <link rel="stylesheet" href="/studio/style.css">
            <title>ARVis Studio</title>
            </head>
            <body>
            <a class="skip" href="#main">Skip to content</a>
            <header class="bar"><a class="brand" href="#/">ARVis Studio</a><nav id="account" aria-label="Account"></nav></header>
            <main id="main" tabindex="-1"><p class="muted">Loading…</p></main>
            <div id="toast" role="status" aria-live="polite"></div>
            <script type="module" src="\(Self.script)"></script>
            </body>
            </html>

            """
    }

    /// The Studio's one script, the module `Web/Files/studio/app.js`: it imports the others.
    static let script = "/studio/app.js"

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
