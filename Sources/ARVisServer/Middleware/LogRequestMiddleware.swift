import Hummingbird
import Logging

/// One log line per request: method, path and status — never the query, which may carry an
/// `access_token` (a browser's event stream cannot send headers).
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        do {
            let response = try await next(request, context)
            log(request, status: response.status.code, context)
            return response
        } catch {
            log(request, status: (error as? any HTTPResponseError)?.status.code ?? 500, context)
            throw error
        }
    }

    private func log(_ request: Request, status: Int, _ context: Context) {
        context.logger.info("\(request.method) \(request.uri.path) \(status)")
    }
}
