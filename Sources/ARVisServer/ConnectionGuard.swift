import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore

/// Guards a connection before HTTP parsing: the first request's head must arrive within a time
/// limit (a client that connects and sends nothing, or a request line a byte at a time, is
/// closed), and a request head over ``headLimit`` bytes is answered `414 URI Too Long` (when its
/// request line never ended) or `431 Request Header Fields Too Large` and the connection closed,
/// instead of being dropped without a word.
///
/// It sits first in the pipeline and reads raw bytes: it counts the bytes of each head until the
/// blank line that ends it, starts counting again when a response goes out, and leaves the
/// pipeline when the connection becomes a WebSocket. Later idle periods of a kept-alive connection
/// are Hummingbird's idle timeout's.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    /// The largest request head read (below the HTTP decoder's own 80 KB, so the answer is ours).
    static let headLimit = 64 * 1_024

    private let headTimeout: TimeAmount
    private var timer: Scheduled<Void>?
    /// Whether the bytes read now belong to a request head.
    private var inHead = true
    private var headBytes = 0
    private var requestLineEnded = false
    /// The last four bytes of the head, to find `\r\n\r\n` across reads.
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
        let loop = context.eventLoop.assumeIsolated()
        timer = loop.scheduleTask(in: headTimeout) { [self] in
            if inHead || refused { context.close(promise: nil) }
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        let buffer = unwrapInboundIn(data)
        if inHead, let refusal = scan(buffer) {
            refuse(context, refusal)
            return
        }
        context.fireChannelRead(data)
    }

    /// Counts a read's bytes into the head; returns the refusal once the head is too long.
    private func scan(_ buffer: ByteBuffer) -> HTTPResponse.Status? {
        // On locals, written back once: this runs for every byte of every request head.
        var count = headBytes, window = window, lineEnded = requestLineEnded, ended = false
        let refusal: HTTPResponse.Status? = buffer.withUnsafeReadableBytes { bytes in
            for byte in bytes {
                count += 1
                window = window << 8 | UInt32(byte)
                if byte == 0x0A { lineEnded = true }
                if window == 0x0D0A_0D0A {
                    ended = true
                    return nil
                }
                if count > Self.headLimit { return lineEnded ? .requestHeaderFieldsTooLarge : .uriTooLong }
            }
            return nil
        }
        (headBytes, self.window, requestLineEnded) = (count, window, lineEnded)
        if ended {
            inHead = false
            timer?.cancel()
        }
        return refusal
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .byteBuffer(let buffer) = unwrapOutboundIn(data), let status = Self.status(of: buffer) {
            if status == 101 {
                Self.limitSendBuffer(of: context.channel)
                context.write(data, promise: promise)
                context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
                return
            }
            if status >= 200 {
                // A response starts: the next bytes read are the next request's head.
                inHead = true
                headBytes = 0
                requestLineEnded = false
                window = 0
            }
        }
        context.write(data, promise: promise)
    }

    /// The kernel's send buffer of a long-lived connection (a WebSocket, an event stream): 256 KB.
    /// Left to grow, each connection's buffer takes up to megabytes of every large message at once
    /// (copied by the event loops, held by the kernel) while its client is slow to read.
    static let liveSendBuffer = 256 * 1_024

    /// Fixes the send buffer of `channel` at ``liveSendBuffer``.
    static func limitSendBuffer(of channel: any Channel) {
        try? channel.syncOptions?.setOption(ChannelOptions.socketOption(.so_sndbuf), value: liveSendBuffer)
    }

    /// `HTTP/1.` as the first seven bytes of a big-endian 64-bit word (the eighth masked off).
    private static let responsePrefix: UInt64 = 0x4854_5450_2F31_2E00

    /// The status code of a buffer that starts a response (`HTTP/1.1 200 …`), else `nil`; read
    /// without allocating, since every write of every response passes here.
    private static func status(of buffer: ByteBuffer) -> Int? {
        let start = buffer.readerIndex
        guard buffer.readableBytes >= 12, let word = buffer.getInteger(at: start, endianness: .big, as: UInt64.self),
              word & 0xFFFF_FFFF_FFFF_FF00 == responsePrefix else { return nil }
        var status = 0
        for offset in 9..<12 {
            guard let digit = buffer.getInteger(at: start + offset, as: UInt8.self), (0x30...0x39).contains(digit) else { return nil }
            status = status * 10 + Int(digit - 0x30)
        }
        return status
    }

    /// Answers `status` in the API's error shape, stops writing, and closes once the client has
    /// stopped sending (or after a second), so the answer is not lost to a reset.
    private func refuse(_ context: ChannelHandlerContext, _ status: HTTPResponse.Status) {
        refused = true
        let message = status == .uriTooLong ? "the request line is longer than \(Self.headLimit) bytes"
            : "the request's headers are longer than \(Self.headLimit) bytes"
        let body = #"{"error":{"code":"\#(status == .uriTooLong ? "uriTooLong" : "headersTooLarge")","message":"\#(message)"}}"#
        let head = "HTTP/1.1 \(status.code) \(status.reasonPhrase)\r\nContent-Type: application/json; charset=utf-8\r\n"
            + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n"
        context.writeAndFlush(wrapOutboundOut(.byteBuffer(ByteBuffer(string: head + body))), promise: nil)
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
