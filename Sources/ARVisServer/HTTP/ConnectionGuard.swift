import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore

/// Guards a connection's first request before HTTP parsing: its head must arrive within a time
/// limit (a client that connects and sends nothing, or a request line a byte at a time, is
/// closed), and a head over ``headLimit`` bytes is answered `414 URI Too Long` (when its request
/// line never ended) or `431 Request Header Fields Too Large` and the connection closed, instead of
/// being dropped without a word.
///
/// It sits first in the pipeline and counts raw bytes up to the blank line that ends the head, then
/// leaves the pipeline: the requests that follow on a kept-alive connection cost nothing here. They
/// are bounded by Hummingbird's idle timeout and the HTTP decoder's own 80 KB limit (which closes
/// without an answer). Counting only the first head also means no request body is ever mistaken for
/// a head.
final class ConnectionGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// The largest request head read (below the HTTP decoder's own 80 KB, so the answer is ours).
    static let headLimit = 64 * 1_024

    private let headTimeout: TimeAmount
    private var timer: Scheduled<Void>?
    private var headBytes = 0
    private var requestLineEnded = false
    /// The last four bytes read, to find `\r\n\r\n` across reads.
    private var window: UInt32 = 0
    /// Whether the request was refused: what else arrives is dropped.
    private var refused = false

    init(headTimeout: TimeAmount) {
        self.headTimeout = headTimeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { startTimer(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        startTimer(context)
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }

    private func startTimer(_ context: ChannelHandlerContext) {
        guard timer == nil else { return }
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: headTimeout) { context.close(promise: nil) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        switch scan(unwrapInboundIn(data)) {
        case .reading:
            context.fireChannelRead(data)
        case .ended:
            context.fireChannelRead(data)
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        case .refused(let status):
            refuse(context, status)
        }
    }

    private enum Progress {
        case reading, ended
        case refused(HTTPResponse.Status)
    }

    /// Counts a read's bytes into the head.
    private func scan(_ buffer: ByteBuffer) -> Progress {
        // On locals, written back once: this runs for every byte of the head.
        var count = headBytes
        var window = window
        var lineEnded = requestLineEnded
        let progress: Progress = buffer.withUnsafeReadableBytes { bytes in
            for byte in bytes {
                count += 1
                window = window << 8 | UInt32(byte)
                if byte == 0x0A { lineEnded = true }
                if window == 0x0D0A_0D0A { return .ended }
                if count > Self.headLimit { return .refused(lineEnded ? .requestHeaderFieldsTooLarge : .uriTooLong) }
            }
            return .reading
        }
        (headBytes, self.window, requestLineEnded) = (count, window, lineEnded)
        return progress
    }

    /// The kernel's send buffer of a long-lived connection (a WebSocket, an event stream): 64 KB
    /// (Linux doubles it for its bookkeeping). Left to grow, each connection's buffer takes up to
    /// megabytes of every large message at once (copied by the event loops, held by the kernel)
    /// while its client is slow to read; at 256 KB, copying a 4.8 MB version into 400 sockets that
    /// never read kept the event loops from `/health` for 300–400 ms on a busy 2-core machine. 128 KB
    /// in flight still carries a live stream at 1–2 MB/s to a phone 100 ms away, more nearer.
    static let liveSendBuffer = 64 * 1_024

    /// Fixes the send buffer of `channel` at ``liveSendBuffer``; call on its event loop.
    static func limitSendBuffer(of channel: any Channel) {
        try? channel.syncOptions?.setOption(ChannelOptions.socketOption(.so_sndbuf), value: liveSendBuffer)
    }

    /// Answers `status` in the API's error shape, stops writing, and closes once the client has
    /// stopped sending (or after a second), so the answer is not lost to a reset.
    private func refuse(_ context: ChannelHandlerContext, _ status: HTTPResponse.Status) {
        refused = true
        let message =
            status == .uriTooLong
            ? "the request line is longer than \(Self.headLimit) bytes"
            : "the request's headers are longer than \(Self.headLimit) bytes"
        let body =
            #"{"error":{"code":"\#(status == .uriTooLong ? "uriTooLong" : "headersTooLarge")","message":"\#(message)"}}"#
        let head =
            "HTTP/1.1 \(status.code) \(status.reasonPhrase)\r\nContent-Type: application/json; charset=utf-8\r\n"
            + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n"
        context.writeAndFlush(NIOAny(ByteBuffer(string: head + body)), promise: nil)
        context.close(mode: .output, promise: nil)
        timer?.cancel()
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: .seconds(1)) { context.close(promise: nil) }
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        context.fireChannelInactive()
    }
}

/// A server child channel with a ``ConnectionGuard`` in front of `base`'s pipeline.
struct GuardedChannel<Base: ServerChildChannel>: ServerChildChannel {
    typealias Value = Base.Value

    let base: Base
    /// How long the first request's head may take.
    let headTimeout: TimeAmount

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        do {
            try channel.pipeline.syncOperations.addHandler(ConnectionGuard(headTimeout: headTimeout), position: .first)
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        return base.setup(channel: channel, logger: logger)
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}
