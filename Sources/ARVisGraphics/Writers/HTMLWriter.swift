import ARVisSupport

/// Writes self-contained HTML pages: one drawing with its SVG inline and a small vanilla script that
/// shows tooltips on hover and switches segmented controls; or a gallery page linking several.
///
/// Pages need no network: styles and script are inline, media elements play their own URLs.
public struct HTMLWriter: Sendable {
    /// Creates a writer.
    public init() {}

    /// A page showing `drawing`, interactive. Its overlays (what its `iARVis://openComponent` links
    /// open) are dialogs over it, opened by their links and closed by their button, Escape or a
    /// click beside them; an overlay's own links open the next one above it. An overlay's
    /// `data-child` names the child widget the link adds in AR.
    public func page(_ drawing: Drawing) -> String {
        let svg = SVGWriter(interactive: true).write(drawing)
        let overlays = drawing.overlays.enumerated().map { index, overlay in
            let title = escape(overlay.drawing.title ?? "Linked widget")
            let inner = SVGWriter(interactive: true, idPrefix: "o\(index + 1)-").write(overlay.drawing)
            let child = overlay.child.map { " data-child=\"\(escape($0))\"" } ?? ""
            return """
                <div class="arvis-overlay" id="\(escape(overlay.id))"\(child) role="dialog" aria-modal="true" aria-label="\(title)" hidden>
                <div class="arvis-overlay-card"><button type="button" class="arvis-close" aria-label="Close \(title)">×</button>
                \(inner)</div></div>

                """
        }.joined()
        return document(
            title: drawing.title ?? "ARVis widget",
            body: """
                <main class="arvis-widget">
                \(svg)</main>
                \(overlays)<script>\(Self.script)</script>
                """)
    }

    /// The page's Content-Security-Policy: nothing runs but the page's own script (by its hash), no
    /// inline event handlers, plugins, frames or forms; pictures and media from the web or inline.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'sha256-\(SHA256.base64Digest(of: script))'; "
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
            cards +=
                "<figure><a href=\"\(link)\">\(svg)</a><figcaption><a href=\"\(link)\">\(escape(entry.title))</a></figcaption></figure>\n"
        }
        return document(
            title: title,
            body: """
                <h1>\(escape(title))</h1>
                <div class="arvis-gallery">
                \(cards)</div>
                """)
    }

    static let style = """
        body{margin:24px;background:#eef0f3;font-family:'DejaVu Sans',Verdana,sans-serif;color:#1c1c1e}\
        .arvis-widget svg{max-width:100%;height:auto;box-shadow:0 2px 12px rgba(0,0,0,.15);border-radius:12px;background:transparent}\
        .arvis-hover,.arvis-segment-button,.arvis-open{cursor:pointer}\
        .arvis-overlay{position:fixed;inset:0;background:rgba(0,0,0,.45);display:flex;align-items:center;justify-content:center;padding:16px;overflow:auto}\
        .arvis-overlay[hidden]{display:none}\
        .arvis-overlay-card{position:relative;max-width:100%;max-height:100%;overflow:auto}\
        .arvis-overlay-card svg{max-width:100%;height:auto;border-radius:12px;box-shadow:0 8px 32px rgba(0,0,0,.35)}\
        .arvis-close{position:absolute;top:8px;right:8px;width:36px;height:36px;border-radius:18px;border:0;background:#fff;font-size:22px;line-height:1;cursor:pointer;box-shadow:0 1px 4px rgba(0,0,0,.3)}\
        .arvis-close:focus-visible,.arvis-open:focus-visible{outline:3px solid #007aff}\
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
        var open=[];\
        function close(){var top=open.pop();if(!top)return;top.dialog.hidden=true;if(top.from&&top.from.focus)top.from.focus();}\
        document.querySelectorAll('a.arvis-open').forEach(function(link){\
        link.addEventListener('click',function(event){\
        var dialog=document.getElementById((link.getAttribute('href')||'').slice(1));if(!dialog)return;event.preventDefault();\
        if(open.some(function(item){return item.dialog===dialog;}))return;\
        document.body.appendChild(dialog);dialog.hidden=false;open.push({dialog:dialog,from:link});dialog.querySelector('.arvis-close').focus();});\
        link.addEventListener('keydown',function(event){if(event.key==='Enter'||event.key===' '){event.preventDefault();link.dispatchEvent(new MouseEvent('click',{bubbles:true,cancelable:true}));}});});\
        document.querySelectorAll('.arvis-overlay').forEach(function(dialog){\
        dialog.querySelector('.arvis-close').addEventListener('click',close);\
        dialog.addEventListener('click',function(event){if(event.target===dialog)close();});});\
        document.addEventListener('keydown',function(event){if(event.key==='Escape'&&open.length){event.preventDefault();close();}});\
        })();
        """
}
