import HTTPTypes
import Hummingbird

/// Cross-origin access for browsers, off unless origins are configured (`arvis serve --cors-origin`):
/// a listed origin (or any, with `*`) gets `Access-Control-Allow-Origin` and preflights are answered.
struct CORSPolicyMiddleware<Context: RequestContext>: RouterMiddleware {
    let origins: Set<String>

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard let origin = request.headers[.origin], origins.contains(origin) || origins.contains("*") else {
            return try await next(request, context)
        }
        let isPreflight = request.method == .options && request.headers[.accessControlRequestMethod] != nil
        var response = isPreflight ? Response(status: .noContent) : try await next(request, context)
        response.headers[.accessControlAllowOrigin] = origin
        response.headers[.vary] = "Origin"
        response.headers[.accessControlExposeHeaders] = "ETag, Location, Retry-After"
        if isPreflight {
            response.headers[.accessControlAllowMethods] = "GET, POST, PUT, PATCH, DELETE"
            response.headers[.accessControlAllowHeaders] = "Authorization, Content-Type, If-Match, If-None-Match"
            response.headers[.accessControlMaxAge] = "600"
        }
        return response
    }
}
