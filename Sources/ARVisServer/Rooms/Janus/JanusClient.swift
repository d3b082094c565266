import ARVisSupport
import AsyncHTTPClient
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1

/// What went wrong talking to Janus.
struct JanusError: Error, CustomStringConvertible {
    /// Janus's error code (`458`: no such session; the VideoRoom plugin's own, `426`: no such
    /// room), or `nil` for a transport failure.
    var code: Int?
    /// What Janus (or the transport) said.
    var reason: String

    var description: String { code.map { "Janus error \($0): \(reason)" } ?? "Janus: \(reason)" }

    /// Whether Janus no longer knows the session (it timed out, or Janus restarted).
    var isLostSession: Bool { code == 458 }
}

/// Janus's HTTP API (its REST transport: `POST /janus`, `/janus/SESSION`, `/janus/SESSION/HANDLE`
/// and the long poll `GET /janus/SESSION`), as ``VideoRelay`` uses it.
///
/// A plugin message is answered twice: `ack` at once, then an event carrying the same transaction,
/// which arrives through the long poll. ``message(_:handle:body:jsep:)`` waits for that event (at most
/// ``replyTimeout``); every other event goes to whoever polls, through ``poll(_:)``.
final class JanusClient: Sendable {
    /// The API's base, such as `http://127.0.0.1:8088/janus`.
    let endpoint: String
    /// Janus's `api_secret`, sent with every request when it has one.
    let secret: String?
    /// How long a request, or the event answering it, may take.
    static let replyTimeout = Duration.seconds(10)
    /// How long Janus holds a long poll open before answering with nothing (it holds 30 s).
    static let pollTimeout = Duration.seconds(40)
    /// The largest answer read from Janus.
    static let maximumReplyBytes = 1 << 20

    private let http: HTTPClient
    private let waiting = NIOLockedValueBox<[String: CheckedContinuation<JSONValue, any Error>]>([:])

    init(endpoint: String, secret: String?, http: HTTPClient = .shared) {
        self.endpoint = endpoint.hasSuffix("/") ? String(endpoint.dropLast()) : endpoint
        self.secret = secret
        self.http = http
    }

    // MARK: Sessions and handles

    /// Janus's `info`: whether it answers at all, and runs the VideoRoom plugin.
    func checkVideoRoom() async throws {
        let reply: JSONValue
        do { reply = try await send(["janus": "info"], to: "", timeout: .seconds(3)) } catch let error as JanusError {
            throw error
        } catch {
            throw JanusError(reason: "nothing answers at \(endpoint) (\(error))")
        }
        guard reply["plugins"]?["janus.plugin.videoroom"] != nil else {
            throw JanusError(reason: "this Janus has no VideoRoom plugin (janus.plugin.videoroom)")
        }
    }

    /// A new session; Janus forgets it after its `session_timeout` without a request.
    func createSession() async throws -> Int64 {
        try identifier(in: try await send(["janus": "create"], to: ""))
    }

    /// A handle on the VideoRoom plugin in `session`.
    func attach(_ session: Int64) async throws -> Int64 {
        try identifier(in: try await send(["janus": "attach", "plugin": "janus.plugin.videoroom"], to: "/\(session)"))
    }

    /// Closes a handle (its peer connection with it).
    func detach(_ session: Int64, handle: Int64) async throws {
        _ = try await send(["janus": "detach"], to: "/\(session)/\(handle)")
    }

    /// Ends `session`, and every handle in it.
    func destroy(_ session: Int64) async throws {
        _ = try await send(["janus": "destroy"], to: "/\(session)")
    }

    /// Keeps `session` alive.
    func keepAlive(_ session: Int64) async throws {
        _ = try await send(["janus": "keepalive"], to: "/\(session)")
    }

    /// Hands a handle's peer one ICE candidate (`RTCIceCandidate.toJSON()`), or `null` for the end
    /// of candidates.
    func trickle(_ session: Int64, handle: Int64, candidate: JSONValue) async throws {
        let candidate: JSONValue = candidate == .null ? ["completed": true] : candidate
        _ = try await send(["janus": "trickle", "candidate": candidate], to: "/\(session)/\(handle)")
    }

    /// A request to the plugin behind `handle`: its answer (the plugin's `data`) and the session
    /// description that came with it. The plugin's own errors are thrown.
    func message(_ session: Int64, handle: Int64, body: JSONValue, jsep: JSONValue? = nil) async throws -> (
        data: JSONValue, jsep: JSONValue?
    ) {
        var request: [String: JSONValue] = ["janus": "message", "body": body]
        if let jsep { request["jsep"] = jsep }
        let reply = try await send(request, to: "/\(session)/\(handle)", waitForEvent: true)
        let data = reply["plugindata"]?["data"] ?? .null
        if let code = data["error_code"]?.number {
            throw JanusError(code: Int(exactly: code), reason: data["error"]?.string ?? "the VideoRoom plugin refused")
        }
        return (data, reply["jsep"])
    }

    /// The events Janus has for `session`, waiting up to 30 s for the first; an event answering a
    /// ``message(_:handle:body:jsep:)`` goes to it instead.
    func poll(_ session: Int64) async throws -> [JSONValue] {
        var path = "\(endpoint)/\(session)?maxev=16"
        if let secret {
            path += "&apisecret=" + (secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
        }
        var request = HTTPClientRequest(url: path)
        request.method = .GET
        let reply = try await read(try await http.execute(request, timeout: .init(Self.pollTimeout)))
        try Self.requireSuccess(reply)
        let events = reply.array ?? [reply]
        return events.filter { event in
            guard event["janus"]?.string != "keepalive", let transaction = event["transaction"]?.string,
                let waiter = waiting.withLockedValue({ $0.removeValue(forKey: transaction) })
            else { return event["janus"]?.string != "keepalive" }
            waiter.resume(returning: event)
            return false
        }
    }

    // MARK: Requests

    /// Posts `request` (with a fresh transaction) to `path`. `waitForEvent`: an `ack` is followed
    /// by the event that answers it, which is returned instead.
    private func send(
        _ request: [String: JSONValue], to path: String, waitForEvent: Bool = false,
        timeout: Duration = replyTimeout
    ) async throws -> JSONValue {
        var request = request
        let transaction = Self.makeTransaction()
        request["transaction"] = .string(transaction)
        if let secret { request["apisecret"] = .string(secret) }
        var post = HTTPClientRequest(url: endpoint + path)
        post.method = .POST
        post.headers.add(name: "Content-Type", value: "application/json")
        post.body = .bytes(ByteBuffer(bytes: try JSONEncoder().encode(JSONValue.object(request))))
        let http = post
        guard waitForEvent else { return try await exchange(http, timeout: timeout) }
        return try await withCheckedThrowingContinuation { continuation in
            // Registered before the request goes: the event may come through the poll before the ack.
            waiting.withLockedValue { $0[transaction] = continuation }
            Task {
                do {
                    let reply = try await exchange(http)
                    if reply["janus"]?.string != "ack" { resolve(transaction, with: .success(reply)) }
                } catch {
                    resolve(transaction, with: .failure(error))
                }
            }
            Task {
                try? await Task.sleep(for: Self.replyTimeout)
                resolve(transaction, with: .failure(JanusError(reason: "no answer within \(Self.replyTimeout)")))
            }
        }
    }

    private func exchange(_ request: HTTPClientRequest, timeout: Duration = replyTimeout) async throws -> JSONValue {
        let reply = try await read(try await http.execute(request, timeout: .init(timeout)))
        try Self.requireSuccess(reply)
        return reply
    }

    private func resolve(_ transaction: String, with result: Result<JSONValue, any Error>) {
        waiting.withLockedValue { $0.removeValue(forKey: transaction) }?.resume(with: result)
    }

    private func read(_ response: HTTPClientResponse) async throws -> JSONValue {
        let body = try await response.body.collect(upTo: Self.maximumReplyBytes)
        guard response.status == .ok else {
            throw JanusError(reason: "HTTP \(response.status.code) from \(endpoint)")
        }
        do { return try JSONDecoder().decode(JSONValue.self, from: Data(body.readableBytesView)) } catch {
            throw JanusError(reason: "an answer that is not JSON from \(endpoint)")
        }
    }

    private static func requireSuccess(_ reply: JSONValue) throws {
        guard reply["janus"]?.string == "error" else { return }
        throw JanusError(
            code: reply["error"]?["code"]?.number.flatMap { Int(exactly: $0) },
            reason: reply["error"]?["reason"]?.string ?? "an error without a reason")
    }

    private func identifier(in reply: JSONValue) throws -> Int64 {
        guard let number = reply["data"]?["id"]?.number, let id = Int64(exactly: number) else {
            throw JanusError(reason: "an answer without data.id")
        }
        return id
    }

    private static func makeTransaction() -> String {
        var generator = SystemRandomNumberGenerator()
        return String(generator.next() as UInt64, radix: 36)
    }
}

extension JSONValue {
    /// A Janus identifier (sessions, handles, rooms, feeds: whole numbers below 2⁵³).
    var identifier: Int64? { number.flatMap { Int64(exactly: $0) } }
}
