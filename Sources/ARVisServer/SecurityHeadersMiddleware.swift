import HTTPTypes
import Hummingbird

/// Headers every response carries: no MIME sniffing, no referrer leaking a spec's URL, and pages
/// not framed by other sites unless a route says otherwise.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        response.headers[.xContentTypeOptions] = "nosniff"
        if let name = HTTPField.Name.referrerPolicy { response.headers[name] = "no-referrer" }
        if response.headers[.contentSecurityPolicy] == nil { response.headers[.contentSecurityPolicy] = "frame-ancestors 'none'" }
        return response
    }
}

extension HTTPField.Name {
    /// `Referrer-Policy`, which HTTPTypes does not name.
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")
}
