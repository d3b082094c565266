import ARVisGraphics
import ARVisModel
import ARVisStore
import Foundation

/// The orbit viewer of one asset: the server's thumbnail as poster until the first frame, the model
/// drawn by `/viewer.js` (WebGL 2), "View in AR" with AR Quick Look on iOS (the USDZ) and Scene
/// Viewer on Android (the GLB), downloads, and what the server read of the model.
struct AssetViewerPage {
    var asset: Asset
    var project: Project
    /// Scheme, host and port devices reach the server at (Scene Viewer needs absolute URLs).
    var base: String
    /// A signed, short-lived grant to this asset's files (``AssetGrants``) for the links of a page
    /// that needed a token to open; the token itself never goes into a link.
    var grant: String?

    /// Scripts from the server only, pictures and models from the server, framed only by the server's own pages.
    static let policy =
        "default-src 'none'; script-src 'self'; connect-src 'self'; img-src 'self' data: blob:; style-src 'unsafe-inline'; "
        + "base-uri 'none'; form-action 'none'; frame-ancestors 'self'"

    private func link(_ file: String) -> String {
        let path = "/api/v1/projects/\(project.slug)/assets/\(asset.id)/\(file)"
        // A grant is digits, a dot and hex digits: nothing to escape.
        guard let grant else { return path }
        return path + (path.contains("?") ? "&" : "?") + "grant=" + grant
    }

    var html: String {
        let name = asset.name.xmlEscaped
        let glb = link("model.glb")
        let usdz = link("model.usdz")
        let sceneViewer = SceneViewerLink.intent(model: base + glb, title: asset.name)
        let summary = asset.summary.flatMap { try? JSONDecoder().decode(ModelInspection.self, from: Data($0.utf8)) }
        var facts = [
            "\(asset.format.uppercased()) · \(ByteCountFormatter.string(fromByteCount: Int64(asset.size), countStyle: .file))"
        ]
        if let summary {
            facts.append("\(summary.triangles) triangles")
            if let size = summary.bounds?.size {
                facts.append(size.map { String(format: "%.3g", $0) }.joined(separator: " × ") + " m")
            }
        }
        let status = asset.status == .failed ? "This model could not be read: \((asset.failure ?? "").xmlEscaped)" : ""
        let warnings = (summary?.warnings ?? []).map { "<li>\($0.xmlEscaped)</li>" }.joined()
        let thumbnail =
            asset.status == .ready
            ? "<img class=\"poster\" src=\"\(link("thumbnail.png?size=1024").xmlEscaped)\" alt=\"\(name), drawn by the server\">"
            : ""
        return HubPage.head(title: "\(name) — \(project.name.xmlEscaped)", style: Self.style) + """
            <body>
            <header><h1>\(name)</h1><p>\(project.name.xmlEscaped) · \(facts.joined(separator: " · ").xmlEscaped)</p></header>
            <main>
            <div class="stage">
            \(thumbnail)
            <canvas id="view" tabindex="0" data-model="\(glb.xmlEscaped)" aria-label="3D view of \(name). Drag to turn it, shift-drag or two fingers to move it, wheel or pinch to zoom, double-tap to reset; arrow keys turn, plus and minus zoom, 0 resets."></canvas>
            </div>
            <p id="status" role="status" aria-live="polite">\(status)</p>
            <nav>
            <button id="reset" type="button">Reset view</button>
            <a id="ar-ios" rel="ar" href="\(usdz.xmlEscaped)"><img src="\(link("thumbnail.png?size=360").xmlEscaped)" alt="">View in AR</a>
            <a id="ar-android" href="\(sceneViewer.xmlEscaped)">View in AR</a>
            <a href="\(glb.xmlEscaped)" download>GLB</a>
            <a href="\(usdz.xmlEscaped)" download>USDZ</a>
            </nav>
            \(warnings.isEmpty ? "" : "<ul class=\"warnings\">\(warnings)</ul>")
            </main>
            <script type="module" src="/viewer.js"></script>
            </body>
            </html>

            """
    }

    private static let style = """
        body{font:16px/1.4 -apple-system,system-ui,sans-serif;margin:0 auto;max-width:960px;padding:16px;color:#1c1c1e;background:#f2f2f7}\
        h1{font-size:1.5em;margin:0;overflow-wrap:anywhere}header p{margin:4px 0 12px;color:#636366}\
        .stage{position:relative;width:100%;max-width:80vh;aspect-ratio:1/1;margin:0 auto;background:#fff;border-radius:12px;overflow:hidden}\
        .stage canvas,.stage .poster{position:absolute;inset:0;width:100%;height:100%;touch-action:none}\
        .stage .poster{object-fit:contain;pointer-events:none}canvas:focus-visible{outline:3px solid #007aff}\
        #status{min-height:1.4em;color:#636366;text-align:center}\
        nav{display:flex;flex-wrap:wrap;gap:8px;justify-content:center;margin:8px 0}\
        nav a,nav button{padding:10px 14px;border-radius:10px;background:#fff;color:#0060df;text-decoration:none;border:0;font:inherit;cursor:pointer}\
        nav a img{width:24px;height:24px;vertical-align:middle;margin-right:6px;border-radius:4px}nav a[hidden]{display:none}\
        .warnings{color:#8a5300;font-size:.9em}
        """
}
