import ARVisGraphics
import ARVisStore
import Foundation

/// The spec hub's page for a phone: open in iARVis, the QR Code, the widgets and links to the scene.
/// Everything from the spec or the project is escaped. Its one script, `/hub.js`, follows the spec's
/// live stream (a new version replaces what the page shows, without reloading it) and, where the
/// browser has WebXR, offers "Enter AR": the page becomes the AR device (docs/webxr.md). The AR
/// controls live in `#ar-overlay`, WebXR's DOM overlay.
struct HubPage {
    var projectName: String
    var version: SpecVersion
    var links: HubLinks
    var widgetNames: [String]
    var qrSVG: String
    /// The `openVisConfig?json=` link and its QR Code, when the environment fits one.
    var embedded: (link: String, qrSVG: String)?

    /// The page's Content-Security-Policy: the server's scripts, stream and rooms, pictures from the
    /// server only, the server's widget pages in its AR panel; not framed.
    static let policy =
        "default-src 'none'; script-src 'self'; connect-src 'self'; img-src 'self' data: blob:; style-src 'unsafe-inline'; "
        + "frame-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    /// A widget page's policy: its own inline script (tooltips, controls) and pictures from anywhere it names, not framed.
    static let widgetPolicy =
        "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src http: https: data:; "
        + "media-src http: https: data:; base-uri 'none'; form-action 'none'; frame-ancestors 'self'"

    var html: String {
        let path = "/s/\(links.project)/\(links.name)"
        let widgets = widgetNames.enumerated().map { index, name in
            Self.widget.render([
                "path": path, "number": "\(index + 1)", "version": "\(version.version)", "name": name.xmlEscaped,
            ])
        }
        let embeddedCode = embedded.map { Self.embeddedCode.render(["qrCode": $0.qrSVG, "link": $0.link.xmlEscaped]) }
        return PageTemplate.head(title: "\(version.name) — \(projectName)".xmlEscaped, style: Self.style)
            + Self.page.render([
                "project": links.project, "name": links.name, "path": path, "version": "\(version.version)",
                "specName": version.name.xmlEscaped, "projectName": projectName.xmlEscaped,
                "deepLink": links.deepLink.xmlEscaped, "sceneViewer": links.sceneViewer.xmlEscaped,
                "qrCode": qrSVG, "embeddedCode": embeddedCode ?? "", "widgets": widgets.joined(separator: "\n"),
            ])
    }

    /// The page after its head (`Web/Templates/hub.html`): the links, "Enter AR" (shown by `/hub.js`
    /// where WebXR offers `immersive-ar`) with what this device gets and why, the controls WebXR's
    /// DOM overlay shows over the camera, the QR Codes and the widgets.
    private static let page = PageTemplate("hub.html")
    /// One widget's figure.
    private static let widget = PageTemplate("hub-widget.html")
    /// The QR Code holding the whole environment, when it fits one.
    private static let embeddedCode = PageTemplate("hub-embedded-code.html")
    private static let style = PageTemplate.style("hub.css")
}
