import Hummingbird
import NIOCore

/// The request context of the server's router: Hummingbird's basics and the client's address
/// (for per-address sign-in limits).
struct ServerContext: RequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    /// The peer of the connection; `nil` in in-process tests.
    let remoteAddress: SocketAddress?
    /// The connection (an event stream sets its send buffer).
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
        channel = source.channel
    }
}

/// The client address of the request being handled, set by ``RequestAddressMiddleware``.
enum RequestAddress {
    @TaskLocal static var current: String?
}

/// Makes the connection's peer address available to the generated handlers as ``RequestAddress``.
struct RequestAddressMiddleware: RouterMiddleware {
    func handle(_ request: Request, context: ServerContext, next: (Request, ServerContext) async throws -> Response)
        async throws -> Response
    {
        try await RequestAddress.$current.withValue(context.remoteAddress?.ipAddress) {
            try await next(request, context)
        }
    }
}
