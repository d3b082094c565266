import HTTPTypes
import Hummingbird

/// The contract itself: `/openapi.yaml` and its reference page `/docs`.
enum DocumentRoutes {
    static func register(on router: Router<ServerContext>) {
        router.get("/openapi.yaml") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/yaml; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: APIDocument.text)))
        }
        router.get("/docs") { _, _ in
            var headers: HTTPFields = [.contentType: "text/html; charset=utf-8"]
            SecurityHeaders.append(
                to: &headers,
                policy: "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'")
            return Response(
                status: .ok, headers: headers,
                body: .init(byteBuffer: ByteBuffer(string: APIDocument.shared.referencePage)))
        }
    }
}

/// Answers a method the document does not define on a path it does with `405` and `Allow` (and
/// `OPTIONS` with `204` and `Allow`), instead of the router's `404`. Only requests the router found
/// no route for are looked at, so matched requests pay nothing.
struct MethodNotAllowedMiddleware<Context: RequestContext>: RouterMiddleware {
    let document: APIDocument

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            // The router's own "no route" (handlers answer with APIError).
            let allowed = document.methods(for: Substring(request.uri.path))
            guard !allowed.isEmpty, !allowed.contains(request.method) else {
                throw APIError.notFound("nothing is at \(request.uri.path); /docs lists every route")
            }
            let allow = allowed.map(\.rawValue).sorted().joined(separator: ", ")
            if request.method == .options { return Response(status: .noContent, headers: [.allow: allow]) }
            var refusal = APIError(
                .methodNotAllowed, .methodNotAllowed,
                "\(request.uri.path) answers \(allow), not \(request.method.rawValue)")
            refusal.extraHeaders = [.allow: allow]
            throw refusal
        }
    }
}
