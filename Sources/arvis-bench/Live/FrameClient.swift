import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

/// A lean WebSocket client for the many viewers of the pose run: frames are handled on the event
/// loop as they arrive (no task per message), so the clients spend little of the machine the
/// server shares with them. Pings are answered; nothing else is sent.
enum FrameClient {
    /// Connects to `path` on loopback `port` with a bearer token; `onFrame` runs on the event loop
    /// for every text or binary frame, with its arrival instant. Returns the channel once upgraded.
    static func connect(
        port: Int, path: String, token: String, group: any EventLoopGroup,
        onFrame: @escaping @Sendable (WebSocketFrame, ContinuousClock.Instant) -> Void
    ) async throws -> any Channel {
        let upgraded: EventLoopFuture<(any Channel)?> = try await ClientBootstrap(group: group).connect(
            host: "127.0.0.1", port: port
        ) { channel in
            channel.eventLoop.makeCompletedFuture {
                let upgrader = NIOTypedWebSocketClientUpgrader<(any Channel)?>(
                    maxFrameSize: 64 << 20,
                    upgradePipelineHandler: { channel, _ in
                        channel.eventLoop.makeCompletedFuture {
                            try channel.pipeline.syncOperations.addHandler(FrameHandler(onFrame: onFrame))
                            return channel
                        }
                    })
                var headers = HTTPHeaders()
                headers.add(name: "Host", value: "127.0.0.1:\(port)")
                headers.add(name: "Authorization", value: "Bearer \(token)")
                headers.add(name: "Content-Length", value: "0")
                let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: path, headers: headers)
                let configuration = NIOTypedHTTPClientUpgradeConfiguration<(any Channel)?>(
                    upgradeRequestHead: head, upgraders: [upgrader],
                    notUpgradingCompletionHandler: { channel in channel.eventLoop.makeSucceededFuture(nil) })
                return try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(
                    configuration: .init(upgradeConfiguration: configuration))
            }
        }
        guard let channel = try await upgraded.get() else { throw FrameClientError.notUpgraded(path) }
        return channel
    }

    /// Sends a text or binary message (masked, as a client must), from any thread.
    static func send(_ data: ByteBuffer, text: Bool, on channel: any Channel) {
        channel.writeAndFlush(
            WebSocketFrame(fin: true, opcode: text ? .text : .binary, maskKey: .random(), data: data), promise: nil)
    }

    enum FrameClientError: Error {
        case notUpgraded(String)
    }

    /// Hands data frames to a closure and answers pings (masked, as a client must).
    final class FrameHandler: ChannelInboundHandler {
        typealias InboundIn = WebSocketFrame
        typealias OutboundOut = WebSocketFrame

        private let onFrame: @Sendable (WebSocketFrame, ContinuousClock.Instant) -> Void

        init(onFrame: @escaping @Sendable (WebSocketFrame, ContinuousClock.Instant) -> Void) {
            self.onFrame = onFrame
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let frame = unwrapInboundIn(data)
            switch frame.opcode {
            case .binary, .text: onFrame(frame, .now)
            case .ping:
                let pong = WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: frame.unmaskedData)
                context.writeAndFlush(wrapOutboundOut(pong), promise: nil)
            case .connectionClose: context.close(promise: nil)
            default: break
            }
        }
    }
}
