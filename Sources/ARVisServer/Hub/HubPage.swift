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
        let title = "\(version.name) — \(projectName)".xmlEscaped
        let widgets = widgetNames.enumerated().map { index, name in
            let number = index + 1
            return """
                <figure><a href="\(path)/widgets/\(number).html"><img src="\(path)/widgets/\(number).svg?v=\(version.version)" alt="\(name.xmlEscaped)" loading="lazy"></a>
                <figcaption>\(name.xmlEscaped) · <a href="\(path)/widgets/\(number).png">PNG</a></figcaption></figure>
                """
        }.joined(separator: "\n")
        return Self.head(title: title, style: Self.style) + """
            <body data-live="/live/\(links.project)/\(links.name)" data-version="\(version.version)" data-project="\(links.project)" data-name="\(links.name)" data-scene="\(path)/scene.json">
            <header><h1>\(version.name.xmlEscaped)</h1><p>\(projectName.xmlEscaped) · <span id="version">version \(version.version)</span> · <span id="live" role="status" aria-live="polite"></span></p></header>
            <nav>
            <a class="primary" href="\(links.deepLink.xmlEscaped)">Open in iARVis</a>
            <a href="\(path).json">Spec (JSON)</a>
            <a rel="ar" href="\(path)/scene.usdz"><img src="\(Self.arIcon)" alt="" width="20" height="20">View in AR (iPhone, iPad)</a>
            <a href="\(links.sceneViewer.xmlEscaped)">View in AR (Android)</a>
            <a href="\(path)/scene.glb">Scene (GLB)</a>
            <a href="\(path)/scene.json">Scene graph</a>
            </nav>
            \(Self.augmentedReality)
            <div class="codes">
            <figure class="qr">\(qrSVG)<figcaption>Scan with a phone to open this spec in iARVis (it loads the spec from this server: <code>openVisConfig?url=</code>)</figcaption></figure>
            \(embedded.map { "<figure class=\"qr\">\($0.qrSVG)<figcaption>Or scan this one: the whole environment is in the code, which today's iARVis app opens directly (<code>openVisConfig?json=</code>, <a href=\"\($0.link.xmlEscaped)\">link</a>)</figcaption></figure>" } ?? "")
            </div>
            <section class="widgets">
            \(widgets)
            </section>
            <script type="module" src="/hub.js"></script>
            </body>
            </html>

            """
    }

    /// "Enter AR" (shown by `/hub.js` where WebXR offers `immersive-ar`), what this device gets and
    /// why, and the controls WebXR's DOM overlay shows over the camera.
    static let augmentedReality = """
        <section id="ar" aria-label="Augmented reality"><button type="button" id="ar-enter" class="primary" hidden>Enter AR</button>
        <p id="ar-mode">Checking whether this browser can show the environment in AR…</p></section>
        <div id="ar-overlay" hidden>
        <div class="ar-bar"><button type="button" id="ar-exit">Exit AR</button><button type="button" id="ar-replace">Place again</button>
        <button type="button" id="ar-share" aria-pressed="false">Share my view</button><button type="button" id="ar-annotate" aria-pressed="false" hidden>Annotate</button></div>
        <p id="ar-status" role="status" aria-live="polite"></p>
        <p id="ar-banner" role="alert" hidden></p>
        <div id="ar-panel" role="dialog" aria-label="Widget" hidden><button type="button" id="ar-panel-close" aria-label="Close the widget">×</button>
        <iframe id="ar-panel-frame" title="Widget"></iframe></div>
        </div>
        """

    /// The start of a page of the server's, up to its `<body>`: `title` (escaped already) and `style`.
    static func head(title: String, style: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <link rel="icon" href="data:,">
        <title>\(title)</title>
        <style>\(style)</style>
        </head>

        """
    }

    /// A small cube, the first child AR Quick Look wants inside an `<a rel="ar">`.
    static let arIcon =
        "data:image/svg+xml,"
        + "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 20 20'><path d='M10 1 18 5.5v9L10 19 2 14.5v-9z' fill='none' stroke='%23007aff' stroke-width='1.6'/><path d='M2 5.5 10 10l8-4.5M10 10v9' fill='none' stroke='%23007aff' stroke-width='1.6'/></svg>"

    private static let style = """
        body{font:16px/1.4 -apple-system,system-ui,sans-serif;margin:0 auto;max-width:960px;padding:16px;color:#1c1c1e;background:#f2f2f7}\
        h1{font-size:1.5em;margin:0}header p{margin:4px 0 16px;color:#636366}\
        nav{display:flex;flex-wrap:wrap;gap:8px;margin-bottom:16px}\
        nav a{padding:10px 14px;border-radius:10px;background:#fff;color:#007aff;text-decoration:none}\
        nav a.primary{background:#007aff;color:#fff}nav a img{vertical-align:middle;margin-right:6px}\
        .codes{display:flex;flex-wrap:wrap;gap:12px;margin:0 0 16px}\
        .qr{background:#fff;border-radius:12px;padding:12px;margin:0;text-align:center;flex:1 1 240px}.qr svg{width:200px;height:200px}\
        .widgets{display:grid;grid-template-columns:repeat(auto-fill,minmax(280px,1fr));gap:12px}\
        .widgets figure{margin:0;background:#fff;border-radius:12px;padding:8px}.widgets img{width:100%;height:auto}\
        figcaption{font-size:.85em;color:#636366;margin-top:6px}\
        #ar{margin:0 0 16px}#ar button{font:inherit;padding:10px 14px;border-radius:10px;border:0;background:#007aff;color:#fff}\
        #ar p{margin:6px 0;color:#636366}\
        #ar-overlay{position:fixed;inset:0;pointer-events:none;color:#fff;font-size:15px}\
        #ar-overlay button{pointer-events:auto;font:inherit;padding:10px 12px;border-radius:10px;border:0;background:rgba(28,28,30,.75);color:#fff}\
        #ar-overlay button[aria-pressed=true]{background:#007aff}\
        .ar-bar{display:flex;flex-wrap:wrap;gap:6px;padding:10px}\
        #ar-status,#ar-banner{margin:0 10px;padding:6px 10px;border-radius:8px;background:rgba(28,28,30,.6);width:fit-content;max-width:calc(100% - 40px)}\
        #ar-status:empty{display:none}#ar-banner{background:rgba(180,30,30,.85);margin-top:6px}\
        #ar-panel{position:absolute;pointer-events:auto;background:#fff;border-radius:12px;box-shadow:0 4px 24px rgba(0,0,0,.4);overflow:hidden}\
        #ar-panel iframe{border:0;width:100%;height:100%;display:block}\
        #ar-panel-close{position:absolute;right:4px;top:4px;z-index:1}
        """
}
