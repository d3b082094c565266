import HTTPTypes
import Hummingbird

/// The contract itself: `/openapi.yaml` and its reference page `/docs`.
enum DocumentRoutes {
    static func register(on router: Router<ServerContext>) {
        router.get("/openapi.yaml") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/yaml; charset=utf-8"],
                     body: .init(byteBuffer: ByteBuffer(string: APIDocument.text)))
        }
        router.get("/docs") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8",
                                            .contentSecurityPolicy: "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'"],
                     body: .init(byteBuffer: ByteBuffer(string: APIDocument.shared.referencePage)))
        }
    }
}

/// Answers a method the document does not define on a path it does with `405` and `Allow` (and
/// `OPTIONS` with `204` and `Allow`), instead of the router's `404`.
struct MethodNotAllowedMiddleware<Context: RequestContext>: RouterMiddleware {
    let document: APIDocument

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let allowed = document.methods(for: Substring(request.uri.path))
        var method = request.method
        if method == .head { method = .get }
        guard !allowed.isEmpty, !allowed.contains(method) else { return try await next(request, context) }
        let allow = allowed.map(\.rawValue).sorted().joined(separator: ", ")
        if method == .options { return Response(status: .noContent, headers: [.allow: allow]) }
        var refusal = APIError(.methodNotAllowed, "methodNotAllowed", "\(request.uri.path) answers \(allow), not \(request.method.rawValue)")
        refusal.extraHeaders = [.allow: allow]
        throw refusal
    }
}
