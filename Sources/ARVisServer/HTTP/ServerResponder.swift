import Hummingbird
import Logging

/// What the server answers every request with, around the router: the request's bearer token (in
/// the context for the hand routes, as ``RequestToken`` for the generated operations), one log
/// line (method, path and status — never the query, which may carry an `access_token`), and the
/// request metrics by route. The hub's busiest reads (``HubRead``: the
/// spec as iARVis loads it, widgets' files) are answered here without the router's route lookup and
/// middleware chain.
///
/// Done here rather than by router middlewares: each layer of those is an existential call and an
/// async frame on every request, and the route lookup among the server's routes is a tenth of a
/// cached read's time (BENCHMARKS.md).
struct ServerResponder: HTTPResponder {
    let router: RouterResponder<ServerContext>
    let hub: HubRoutes
    /// Whether the hub's reads are answered here; `false` sends them through the router, whose
    /// middlewares they need (cross-origin headers).
    let answersHubReads: Bool
    let instruments: RequestInstruments

    func respond(to request: Request, context: ServerContext) async throws -> Response {
        let start = ContinuousClock.now
        var context = context
        context.token = SessionToken.bearer(request.headers[.authorization])
        do {
            let (response, route) =
                if let token = context.token {
                    try await RequestToken.$current.withValue(token) { [context] in try await answer(request, context) }
                } else {
                    try await answer(request, context)
                }
            finish(request, context, route: route, status: response.status, since: start)
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status ?? .internalServerError
            finish(request, context, route: context.endpointPath, status: status, since: start)
            throw error
        }
    }

    /// The response and the route that made it.
    private func answer(_ request: Request, _ context: ServerContext) async throws -> (Response, String?) {
        guard answersHubReads, request.method == .get, let read = HubRead(path: request.uri.path) else {
            let response = try await router.respond(to: request, context: context)
            return (response, context.endpointPath)
        }
        do {
            return (try await hub.answer(read, request: request, context: context), read.route)
        } catch {
            guard let refusal = APIError.refusal(for: error) else { throw error }
            return (try refusal.response(from: request, context: context), read.route)
        }
    }

    private func finish(
        _ request: Request, _ context: ServerContext, route: String?, status: HTTPResponse.Status,
        since start: ContinuousClock.Instant
    ) {
        let milliseconds = Int((ContinuousClock.now - start) / .milliseconds(1))
        context.logger.info("\(request.method) \(request.uri.path) \(status.code) in \(milliseconds) ms")
        instruments.record(route: route, method: request.method, status: status, since: start)
    }
}
