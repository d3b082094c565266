import Histogram
import NIOCore
import NIOHTTP1
import NIOPosix

/// A closed-loop HTTP/1.1 load generator on SwiftNIO: each keep-alive connection sends its request
/// again as soon as the answer ends, until the deadline. Latencies go into an HDR histogram
/// (microseconds), so percentiles are read from the distribution, never from averages.
struct LoadGenerator {
    /// One request, sent over and over.
    struct Request: Sendable {
        var method: HTTPMethod = .GET
        var path: String
        var headers: [(String, String)] = []
        var body: [UInt8]? = nil
    }

    /// What a run measured.
    struct Outcome: Sendable {
        var seconds: Double
        var latencies: Histogram<UInt64>
        var statuses: [UInt: Int]

        /// Every answer, refusals included.
        var requests: Int { Int(clamping: latencies.totalCount) }
        /// Answers with a 2xx status: the work done. A refusal (`429`) is cheap, so counting it would
        /// make a server that refuses more look faster.
        var succeeded: Int { statuses.filter { (200..<300).contains($0.key) }.values.reduce(0, +) }
        /// Successful answers per second.
        var perSecond: Double { Double(succeeded) / seconds }
        func milliseconds(atPercentile percentile: Double) -> Double {
            Double(latencies.valueAtPercentile(percentile)) / 1000
        }
    }

    let host: String
    let port: Int
    let group: any EventLoopGroup

    /// Runs `request` on `connections` connections for `seconds`.
    func run(_ request: Request, connections: Int, seconds: Double) async throws -> Outcome {
        let start = NIODeadline.now()
        let deadline = start + .nanoseconds(Int64(seconds * 1e9))
        var futures: [EventLoopFuture<ConnectionStats>] = []
        for _ in 0..<connections {
            let loop = group.next()
            let done = loop.makePromise(of: ConnectionStats.self)
            let bootstrap = ClientBootstrap(group: loop).channelOption(.socketOption(.so_reuseaddr), value: 1)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHTTPClientHandlers()
                        try channel.pipeline.syncOperations.addHandler(
                            LoadHandler(request: request, host: host, deadline: deadline, done: done))
                    }
                }
            bootstrap.connect(host: host, port: port).whenFailure { done.fail($0) }
            futures.append(done.futureResult)
        }
        var latencies = Histogram<UInt64>(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three)
        var statuses: [UInt: Int] = [:]
        for future in futures {
            let stats = try await future.get()
            latencies.add(stats.latencies)
            statuses.merge(stats.statuses, uniquingKeysWith: +)
        }
        let elapsed = Double((NIODeadline.now() - start).nanoseconds) / 1e9
        return Outcome(seconds: elapsed, latencies: latencies, statuses: statuses)
    }
}

/// One connection's measurements.
struct ConnectionStats: Sendable {
    var latencies = Histogram<UInt64>(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three)
    var statuses: [UInt: Int] = [:]
}

/// Sends the request, waits for the whole answer, records it and sends again until the deadline.
final class LoadHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    private let request: LoadGenerator.Request
    private let head: HTTPRequestHead
    private let deadline: NIODeadline
    private let done: EventLoopPromise<ConnectionStats>
    private var stats = ConnectionStats()
    private var sentAt = NIODeadline.now()
    private var finished = false

    init(request: LoadGenerator.Request, host: String, deadline: NIODeadline, done: EventLoopPromise<ConnectionStats>) {
        self.request = request
        var headers = HTTPHeaders([("Host", host), ("Connection", "keep-alive")] + request.headers)
        if let body = request.body { headers.add(name: "Content-Length", value: String(body.count)) }
        head = HTTPRequestHead(version: .http1_1, method: request.method, uri: request.path, headers: headers)
        self.deadline = deadline
        self.done = done
    }

    func channelActive(context: ChannelHandlerContext) {
        send(context)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let response):
            stats.statuses[response.status.code, default: 0] += 1
        case .body:
            break
        case .end:
            let now = NIODeadline.now()
            _ = stats.latencies.record(UInt64(max(0, (now - sentAt).nanoseconds / 1000)))
            if now < deadline {
                send(context)
            } else {
                finish(.success(stats))
                context.close(promise: nil)
            }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        finish(.failure(error))
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish(.success(stats))
    }

    private func finish(_ result: Result<ConnectionStats, any Error>) {
        guard !finished else { return }
        finished = true
        done.completeWith(result)
    }

    private func send(_ context: ChannelHandlerContext) {
        sentAt = .now()
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        if let body = request.body {
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
        }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
}
