import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// Janus's HTTP API as far as ``VideoRelay`` uses it, in process: sessions, handles on the
/// VideoRoom plugin, its `create`, `joinandconfigure` (answered with an answer, then `webrtcup`),
/// `join` as a subscriber (answered with an offer) and `start`, trickle, detach and the long poll.
/// It keeps what it was asked, and can forget its session as a restarted Janus does.
actor FakeJanus {
    static let answer = "v=0\r\no=janus 1 1 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\nm=video 9 UDP/TLS/RTP/SAVPF 96\r\n"
    static let offer = "v=0\r\no=janus 2 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\nm=video 9 UDP/TLS/RTP/SAVPF 96\r\n"

    /// One request Janus was sent.
    struct Request: Sendable {
        /// Its `janus`: create, attach, message, trickle, detach, keepalive…
        var kind: String
        /// A message's plugin request: create, joinandconfigure, join, start…
        var request: String?
        /// The session description it carried.
        var sdp: String?
        /// Whether it asked for end-to-end encryption (`jsep.e2ee`).
        var e2ee: Bool
    }

    /// What Janus was asked, in order.
    private(set) var requests: [Request] = []
    private var events: [[String: Any]] = []
    private var nextID = 100
    private var lastSession = 1
    /// Whether the session is forgotten: every request for it gets error 458.
    var lost = false

    func lose() { lost = true }

    /// The plugin requests made so far, in order.
    var pluginRequests: [String] { requests.compactMap(\.request) }

    private func reply(_ object: Any) -> Response {
        // Everything answered is made here of dictionaries, arrays, strings and numbers: it encodes.
        let data = (try? JSONSerialization.data(withJSONObject: object)) ?? Data("{}".utf8)
        return Response(
            status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    private func handle(_ body: [String: Any], session: Int?, handle: Int?) -> Response {
        let kind = body["janus"] as? String ?? ""
        let transaction = body["transaction"] as? String ?? ""
        let plugin = body["body"] as? [String: Any]
        let jsep = body["jsep"] as? [String: Any]
        requests.append(
            Request(
                kind: kind, request: plugin?["request"] as? String, sdp: jsep?["sdp"] as? String,
                e2ee: jsep?["e2ee"] as? Bool == true))
        if session != nil, lost {
            return reply(["janus": "error", "error": ["code": 458, "reason": "No such session"]])
        }
        switch (kind, plugin?["request"] as? String) {
        case ("info", _): return reply(["janus": "server_info", "plugins": ["janus.plugin.videoroom": [:]]])
        case ("create", _):
            lastSession += 1
            return reply(["janus": "success", "data": ["id": lastSession]])
        case ("attach", _):
            nextID += 1
            return reply(["janus": "success", "data": ["id": nextID]])
        case ("message", "create"), ("message", "destroy"):
            return reply(["janus": "success", "plugindata": ["data": ["videoroom": "created"]]])
        case ("message", "joinandconfigure"):
            events.append([
                "janus": "event", "sender": handle ?? 0, "transaction": transaction,
                "plugindata": ["data": ["videoroom": "joined", "id": 77]],
                "jsep": ["type": "answer", "sdp": Self.answer],
            ])
            events.append(["janus": "webrtcup", "sender": handle ?? 0])
        case ("message", "join"):
            events.append([
                "janus": "event", "sender": handle ?? 0, "transaction": transaction,
                "plugindata": ["data": ["videoroom": "attached"]], "jsep": ["type": "offer", "sdp": Self.offer],
            ])
        case ("message", _):
            events.append([
                "janus": "event", "sender": handle ?? 0, "transaction": transaction,
                "plugindata": ["data": ["videoroom": "event", "started": "ok"]],
            ])
        case ("detach", _), ("destroy", _): return reply(["janus": "success"])
        default: break
        }
        return reply(["janus": "ack", "transaction": transaction])
    }

    /// The long poll: the events queued, waiting up to a second for one.
    private func poll() async -> Response {
        for _ in 0..<50 where events.isEmpty && !lost { try? await Task.sleep(for: .milliseconds(20)) }
        if lost { return reply(["janus": "error", "error": ["code": 458, "reason": "No such session"]]) }
        defer { events = [] }
        return reply(events)
    }

    /// Runs `body` with this fake answering at `http://127.0.0.1:PORT/janus`.
    func serve(_ body: @Sendable @escaping (String) async throws -> Void) async throws {
        let router = Router()
        let read: @Sendable (Hummingbird.Request) async throws -> [String: Any] = { request in
            let buffer = try await request.body.collect(upTo: 1 << 20)
            return (try JSONSerialization.jsonObject(with: Data(buffer.readableBytesView)) as? [String: Any]) ?? [:]
        }
        router.post("/janus") { request, _ in await self.handle(try await read(request), session: nil, handle: nil) }
        router.post("/janus/{session}") { request, context in
            await self.handle(
                try await read(request), session: context.parameters.get("session", as: Int.self), handle: nil)
        }
        router.post("/janus/{session}/{handle}") { request, context in
            await self.handle(
                try await read(request), session: context.parameters.get("session", as: Int.self),
                handle: context.parameters.get("handle", as: Int.self))
        }
        router.get("/janus/{session}") { _, _ in await self.poll() }
        try await Application(router: router).test(.live) { client in
            try await body("http://127.0.0.1:\(try #require(client.port))/janus")
        }
    }
}
