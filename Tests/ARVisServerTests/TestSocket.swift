import Foundation
import HTTPTypes
import HummingbirdWSClient
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOWebSocket
import Testing
import WSCore

/// A WebSocket client for the live tests: what arrives is buffered, `next` waits for it.
final class TestSocket: Sendable {
    private struct State: Sendable {
        var received: [WebSocketMessage] = []
        var outbound: WebSocketOutboundWriter?
        var ended = false
    }

    private final class Shared: Sendable {
        let state = NIOLockedValueBox(State())
    }

    private let shared = Shared()
    private let connection: Task<WebSocketCloseFrame?, any Error>

    /// Connects to `path` on the test server's `port`, with a bearer `token` and the WebSocket
    /// subprotocols `protocols` if given. A room's `memberJoined` and `memberLeft` arrive whenever
    /// someone comes or goes: they are kept only with `presence`, so other tests read what they wait for.
    init(port: Int, path: String, token: String? = nil, protocols: [String] = [], presence: Bool = false) {
        var configuration = WebSocketClientConfiguration(maxFrameSize: 64 << 20)
        if let token { configuration.additionalHeaders[.authorization] = "Bearer \(token)" }
        if !protocols.isEmpty {
            configuration.additionalHeaders[.secWebSocketProtocol] = protocols.joined(separator: ", ")
        }
        connection = Task { [shared] in
            let state = shared
            defer { state.state.withLockedValue { $0.ended = true } }
            return try await WebSocketClient.connect(
                url: "ws://localhost:\(port)\(path)", configuration: configuration,
                logger: Logger(label: "test-socket")
            ) { inbound, outbound, _ in
                state.state.withLockedValue { $0.outbound = outbound }
                for try await message in inbound.messages(maxSize: 16 << 20) {
                    if !presence, case .text(let text) = message,
                        text.contains(#""type":"memberJoined""#) || text.contains(#""type":"memberLeft""#)
                    {
                        continue
                    }
                    state.state.withLockedValue { $0.received.append(message) }
                }
            }
        }
    }

    /// The next message, waiting up to `timeout`.
    func next(timeout: Duration = .seconds(20)) async throws -> WebSocketMessage {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let message: WebSocketMessage? = shared.state.withLockedValue { state in
                state.received.isEmpty ? nil : state.received.removeFirst()
            }
            if let message { return message }
            if shared.state.withLockedValue({ $0.ended }) { throw TestSocketError.closed }
            try await Task.sleep(for: .milliseconds(2))
        }
        throw TestSocketError.timedOut
    }

    /// The next message as a JSON object.
    func nextJSON(timeout: Duration = .seconds(20)) async throws -> [String: Any] {
        guard case .text(let text) = try await next(timeout: timeout) else { throw TestSocketError.notText }
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// The next JSON message of `type`, skipping others.
    func next(ofType type: String) async throws -> [String: Any] {
        while true {
            let message = try await nextJSON()
            if message["type"] as? String == type { return message }
        }
    }

    /// Whether nothing arrives within `duration`.
    func staysQuiet(for duration: Duration = .milliseconds(300)) async throws -> Bool {
        try await Task.sleep(for: duration)
        return shared.state.withLockedValue { $0.received.isEmpty }
    }

    func send(_ text: String) async throws {
        try await writer().write(.text(text))
    }

    func send(_ bytes: [UInt8]) async throws {
        try await writer().write(.binary(ByteBuffer(bytes: bytes)))
    }

    /// Waits for the server to close the connection; returns its close frame.
    func closeFrame() async throws -> WebSocketCloseFrame? {
        try await connection.value
    }

    /// The frame the server closes with, failing after `timeout`.
    func closeFrame(within timeout: Duration) async throws -> WebSocketCloseFrame? {
        try await withThrowingTaskGroup(of: WebSocketCloseFrame?.self) { group in
            group.addTask { try await self.closeFrame() }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw TestSocketError.timedOut
            }
            defer { group.cancelAll() }
            return try await group.next() ?? nil
        }
    }

    func close() async throws {
        try await writer().close(.normalClosure, reason: nil)
        _ = try? await connection.value
    }

    private func writer() async throws -> WebSocketOutboundWriter {
        for _ in 0..<2_500 {
            if let outbound = shared.state.withLockedValue({ $0.outbound }) { return outbound }
            try await Task.sleep(for: .milliseconds(2))
        }
        throw TestSocketError.timedOut
    }
}

enum TestSocketError: Error {
    case timedOut, closed, notText
}
