import ARVisGraphics
import ARVisSupport
import ARVisWire
import HTTPTypes
import Hummingbird

/// A file of the server's browser code — the orbit viewer, ARVis Studio, the hub page's live script —
/// served from memory, so pages need nothing from outside the server: `Web/Files/PATH` at `/PATH`.
/// The files are embedded at build time by the `EmbedFiles` plugin.
struct WebFile: Sendable {
    /// Where it is served: its path in `Web/Files`, after a `/`.
    let path: String
    /// Its text.
    let text: String
    /// Its strong entity tag: the first 16 hex digits of its SHA-256.
    let etag: EntityTag

    /// Every embedded file, by path.
    static let all: [WebFile] = EmbeddedFiles.texts.keys.sorted().compactMap { key in
        guard key.hasPrefix(folder), let text = EmbeddedFiles.texts[key] else { return nil }
        return WebFile(
            path: "/" + key.dropFirst(folder.count), text: text,
            etag: HubRenderer.tag(of: Array(text.utf8)))
    }

    /// The embedded files' folder in the target.
    private static let folder = "Web/Files/"

    /// The media type its extension names.
    var mediaType: String {
        if path.hasSuffix(".js") { return "text/javascript; charset=utf-8" }
        if path.hasSuffix(".css") { return "text/css; charset=utf-8" }
        return "text/plain; charset=utf-8"
    }

    /// `GET` of every file at its ``path``, with `ETag` and `304`.
    static func register(on router: Router<ServerContext>) {
        for file in all {
            router.get(RouterPath(file.path)) { request, _ in file.response(to: request) }
        }
    }

    private func response(to request: Request) -> Response {
        var headers: HTTPFields = [.contentType: mediaType, .cacheControl: "no-cache", .eTag: etag.field]
        if EntityTagList.names(etag, inIfNoneMatch: request.headers[.ifNoneMatch]) {
            return Response(status: .notModified, headers: headers)
        }
        SecurityHeaders.append(to: &headers)
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
