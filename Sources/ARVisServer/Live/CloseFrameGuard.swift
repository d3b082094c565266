import NIOCore
import NIOWebSocket

/// Drops every frame written to a WebSocket after its close frame.
///
/// A live connection is written from three places: its writer task, a room's direct writes (poses and
/// broadcasts, straight to the channel), and the WebSocket layer, which answers a client's close frame
/// with its own before the inbound stream ends. Without this guard a broadcast could land between that
/// answer and the end of the stream, and a browser fails the connection on a data frame after a close
/// ("Data frame received after close"). Sits just after the frame encoder, so it sees every frame.
final class CloseFrameGuard: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    /// Whether a close frame has gone out.
    private var closed = false

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard !closed else {
            promise?.fail(ChannelError.outputClosed)
            return
        }
        if unwrapOutboundIn(data).opcode == .connectionClose { closed = true }
        context.write(data, promise: promise)
    }

    /// Puts a guard on `channel`, just after its frame encoder; call on its event loop, before the
    /// connection writes anything.
    static func install(on channel: any Channel) throws {
        let pipeline = channel.pipeline.syncOperations
        let encoder = try pipeline.context(handlerType: WebSocketFrameEncoder.self)
        try pipeline.addHandler(CloseFrameGuard(), position: .after(encoder.handler))
    }
}
