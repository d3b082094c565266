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
        let warnings = (summary?.warnings ?? []).map { Self.warning.render(["text": $0.xmlEscaped]) }.joined()
        let poster =
            asset.status == .ready
            ? Self.poster.render(["src": link("thumbnail.png?size=1024").xmlEscaped, "name": name]) : ""
        return PageTemplate.head(title: "\(name) — \(project.name.xmlEscaped)", style: Self.style)
            + Self.page.render([
                "name": name, "projectName": project.name.xmlEscaped,
                "facts": facts.joined(separator: " · ").xmlEscaped,
                "poster": poster, "glb": glb.xmlEscaped, "usdz": usdz.xmlEscaped, "status": status,
                "arThumbnail": link("thumbnail.png?size=360").xmlEscaped, "sceneViewer": sceneViewer.xmlEscaped,
                "warnings": warnings.isEmpty ? "" : Self.warnings.render(["items": warnings]),
            ])
    }

    /// The page after its head (`Web/Templates/viewer.html`).
    private static let page = PageTemplate("viewer.html")
    /// The server's thumbnail, shown until the first frame.
    private static let poster = PageTemplate("viewer-poster.html")
    /// What the server warned of the model: the list, and one warning.
    private static let warnings = PageTemplate("viewer-warnings.html")
    private static let warning = PageTemplate("viewer-warning.html")
    private static let style = PageTemplate.style("viewer.css")
}
