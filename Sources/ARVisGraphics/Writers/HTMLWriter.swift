import ARVisSpec

/// Writes self-contained HTML pages: one drawing with its SVG inline and a small vanilla script that
/// shows tooltips on hover and switches segmented controls; or a gallery page linking several.
///
/// Pages need no network: styles and script are inline, media elements play their own URLs.
public struct HTMLWriter: Sendable {
    /// Creates a writer.
    public init() {}

    /// A page showing `drawing`, interactive.
    public func page(_ drawing: Drawing) -> String {
        let svg = SVGWriter(interactive: true).write(drawing)
        return document(title: drawing.title ?? "ARVis widget", body: """
            <main class="arvis-widget">
            \(svg)</main>
            <script>\(Self.script)</script>
            """)
    }

    /// The page's Content-Security-Policy: nothing runs but the page's own script (by its hash), no
    /// inline event handlers, plugins, frames or forms; pictures and media from the web or inline.
    static let contentSecurityPolicy = "default-src 'none'; script-src 'sha256-\(SHA256.base64Digest(of: script))'; "
        + "style-src 'unsafe-inline'; img-src http: https: data:; media-src http: https: data:; "
        + "base-uri 'none'; form-action 'none'"

    /// A complete page with the shared head and styles.
    private func document(title: String, body: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta http-equiv="Content-Security-Policy" content="\(Self.contentSecurityPolicy)">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(escape(title))</title>
        <style>\(Self.style)</style>
        </head>
        <body>
        \(body)
        </body>
        </html>

        """
    }

    /// One entry of a gallery page.
    public struct GalleryEntry: Sendable, Hashable {
        /// The caption.
        public var title: String
        /// The page or image the entry links to, relative to the gallery.
        public var link: String
        /// The picture shown, inline.
        public var drawing: Drawing

        /// Creates an entry.
        public init(title: String, link: String, drawing: Drawing) {
            self.title = title
            self.link = link
            self.drawing = drawing
        }
    }

    /// A gallery page: each drawing as a static thumbnail that links to its own file.
    public func gallery(title: String, entries: [GalleryEntry]) -> String {
        var cards = ""
        for (index, entry) in entries.enumerated() {
            let svg = SVGWriter(idPrefix: "w\(index + 1)-").write(entry.drawing)
            let link = LinkPolicy.navigable(entry.link).map(escape) ?? ""
            cards += "<figure><a href=\"\(link)\">\(svg)</a><figcaption><a href=\"\(link)\">\(escape(entry.title))</a></figcaption></figure>\n"
        }
        return document(title: title, body: """
            <h1>\(escape(title))</h1>
            <div class="arvis-gallery">
            \(cards)</div>
            """)
    }

    static let style = """
    body{margin:24px;background:#eef0f3;font-family:'DejaVu Sans',Verdana,sans-serif;color:#1c1c1e}\
    .arvis-widget svg{max-width:100%;height:auto;box-shadow:0 2px 12px rgba(0,0,0,.15);border-radius:12px;background:transparent}\
    .arvis-hover,.arvis-segment-button{cursor:pointer}\
    .arvis-gallery{display:grid;grid-template-columns:repeat(auto-fill,minmax(320px,1fr));gap:24px}\
    .arvis-gallery figure{margin:0;background:#fff;border-radius:12px;padding:12px;box-shadow:0 1px 6px rgba(0,0,0,.12)}\
    .arvis-gallery svg{width:100%;height:auto}figcaption{margin-top:8px;font-size:14px}
    """

    static let script = """
    (function(){\
    document.querySelectorAll('.arvis-hover').forEach(function(mark){\
    var tip=document.getElementById(mark.getAttribute('data-tooltip'));if(!tip)return;\
    mark.addEventListener('mouseenter',function(){tip.setAttribute('visibility','visible');});\
    mark.addEventListener('mouseleave',function(){tip.setAttribute('visibility','hidden');});\
    mark.addEventListener('focus',function(){tip.setAttribute('visibility','visible');});});\
    document.querySelectorAll('.arvis-segment-button').forEach(function(button){\
    button.addEventListener('click',function(){\
    var control=button.getAttribute('data-control'),index=button.getAttribute('data-index');\
    document.querySelectorAll('.arvis-segment[data-control="'+control+'"]').forEach(function(segment){\
    if(segment.getAttribute('data-index')===index){segment.removeAttribute('display');}else{segment.setAttribute('display','none');}});\
    document.querySelectorAll('.arvis-segment-button[data-control="'+control+'"]').forEach(function(other){\
    var selected=other.getAttribute('data-index')===index;\
    var pill=other.querySelector('path');if(pill){pill.setAttribute('fill-opacity',selected?'1':'0');}});});});\
    })();
    """
}
