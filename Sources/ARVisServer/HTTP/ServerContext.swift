import Hummingbird
import HummingbirdWebSocket
import NIOConcurrencyHelpers
import NIOCore

/// The one request context of the server, for HTTP requests and WebSocket upgrades alike:
/// Hummingbird's basics, the client's address (for per-address limits), the connection, and the
/// WebSocket handler an upgrade hands over.
struct ServerContext: RequestContext, RemoteAddressRequestContext, WebSocketRequestContext {
    var coreContext: CoreRequestContextStorage
    /// The peer of the connection; `nil` in in-process tests.
    let remoteAddress: SocketAddress?
    /// The connection (an event stream sets its send buffer; rooms write poses to a WebSocket's on
    /// its event loop).
    let channel: any Channel
    /// The request's bearer token (`Authorization: Bearer …`), set by ``ServerResponder``: who a
    /// hand route's checks ask for (``ServerServices/access(_:needs:)``).
    var token: String?
    /// The handler of a WebSocket upgrade, held until its connection ends (``endWebSocket()``).
    var webSocket: WebSocketHandlerReference<ServerContext> { upgrade.reference }
    private let upgrade = WebSocketUpgrade()

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
        channel = source.channel
    }

    /// Lets go of the upgrade's handler once its connection has ended. Hummingbird keeps the
    /// handler together with a copy of this context, which holds the handler: a cycle that, left
    /// alone, keeps every closed WebSocket connection in memory with its channel (LeakSanitizer found
    /// it, one per connection).
    func endWebSocket() { upgrade.release() }
}

/// Holds a context's WebSocket handler until its connection ends.
private final class WebSocketUpgrade: Sendable {
    private let held = NIOLockedValueBox<WebSocketHandlerReference<ServerContext>?>(.init())

    /// The handler; a new, empty one once released (nothing reads it then).
    var reference: WebSocketHandlerReference<ServerContext> { held.withLockedValue { $0 ?? .init() } }

    func release() { held.withLockedValue { $0 = nil } }
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
