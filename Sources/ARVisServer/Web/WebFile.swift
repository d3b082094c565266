import ARVisGraphics
import HTTPTypes
import Hummingbird

/// A file of the server's browser code — the orbit viewer, ARVis Studio, the hub page's live script —
/// served from memory, so pages need nothing from outside the server: `studio-NAME` at
/// `/studio/NAME`, any other at `/NAME`. The sources are `Web/Files`, embedded by `Scripts/embed_web.py`.
struct WebFile: Sendable {
    /// The file's name in `Web/Files`.
    let name: String
    /// Its text.
    let text: String
    /// Its strong `ETag`: the first 16 hex digits of its SHA-256.
    let etag: String

    /// Every embedded file.
    static let all: [WebFile] = sources.keys.sorted().map { name in
        let text = sources[name] ?? ""
        return WebFile(name: name, text: text, etag: "\"\(SHA256.hexDigest(of: Array(text.utf8)).prefix(16))\"")
    }

    /// Where it is served.
    var path: String { name.hasPrefix("studio-") ? "/studio/" + name.dropFirst("studio-".count) : "/" + name }

    /// The media type its extension names.
    var mediaType: String {
        if name.hasSuffix(".js") { return "text/javascript; charset=utf-8" }
        if name.hasSuffix(".css") { return "text/css; charset=utf-8" }
        return "text/plain; charset=utf-8"
    }

    /// `GET` of every file at its ``path``, with `ETag` and `304`.
    static func register(on router: Router<ServerContext>) {
        for file in all {
            router.get(RouterPath(file.path)) { request, _ in file.response(to: request) }
        }
    }

    private func response(to request: Request) -> Response {
        var headers: HTTPFields = [.contentType: mediaType, .cacheControl: "no-cache", .eTag: etag]
        if ETagList.names(etag, request.headers[.ifNoneMatch]) { return Response(status: .notModified, headers: headers) }
        SecurityHeaders.append(to: &headers)
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
