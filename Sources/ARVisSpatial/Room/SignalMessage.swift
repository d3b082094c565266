public import ARVisSupport
import Foundation

/// `{"type": "signal", "to", "kind", "sdp"?, "candidate"?, "clientId"?}`: WebRTC signalling for one
/// member of the room — `offer` and `answer` (with `sdp`), `candidate` (an ICE candidate as
/// `RTCIceCandidate.toJSON()` gives it; `null` for the end of candidates), `bye`, or `wait` (a
/// publisher telling a member it has no place for it yet: an offer follows when one frees). The server
/// relays it to that member only, as `{"type": "signal", "from", …}`.
public struct SignalMessage: Codable, Hashable, Sendable, RoomMessageContent {
    static let name = "signal"
    static let shape =
        "{\"type\": \"signal\", \"to\": member id, \"kind\": \"offer\" | \"answer\" | \"candidate\" | \"bye\" | \"wait\", \"sdp\"?, \"candidate\"?, \"clientId\"?}"
    /// The longest session description, in UTF-8 bytes (a camera track's offer is about 5 KB).
    public static let maximumSDPBytes = 32_768
    /// The longest candidate, in UTF-8 bytes of its JSON.
    public static let maximumCandidateBytes = 2_048

    /// The member it is for (an id from `welcome` or `memberJoined`), or the SFU.
    public var to: String
    /// `offer`, `answer`, `candidate`, `bye` or `wait`.
    public var kind: String
    /// An offer's or answer's session description.
    public var sdp: String?
    /// `nil` when absent; ``JSONValue/null`` for the end of candidates.
    public var candidate: JSONValue?
    /// The sender's id for this signal, echoed in a refusal.
    public var clientId: String?

    private enum CodingKeys: CodingKey { case to, kind, sdp, candidate, clientId }

    /// Creates a signal; a `bye` or a `wait` keeps no `sdp` or `candidate`.
    public init(to: String, kind: String, sdp: String? = nil, candidate: JSONValue? = nil, clientId: String? = nil) {
        (self.to, self.kind, self.clientId) = (to, kind, clientId)
        if kind != "bye" && kind != "wait" { (self.sdp, self.candidate) = (sdp, candidate) }
    }

    /// Reads a signal; a candidate present and `null` is kept as ``JSONValue/null``.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        to = try container.decode(String.self, forKey: .to)
        kind = try container.decode(String.self, forKey: .kind)
        sdp = try container.decodeIfPresent(String.self, forKey: .sdp)
        // Present and null is the end of candidates, not "no candidate". (A bare `nil` here would be
        // JSONValue's nil literal, `.null`: absent must be `Optional.none`.)
        candidate = nil
        if container.contains(.candidate) { candidate = try container.decode(JSONValue.self, forKey: .candidate) }
        clientId = try container.decodeIfPresent(String.self, forKey: .clientId)
        // A bye or a wait carries nothing: whatever came with it is not relayed.
        if kind == "bye" || kind == "wait" { (sdp, candidate) = (nil, nil) }
    }

    /// Writes a signal; a ``JSONValue/null`` candidate is written as `null`, not left out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(to, forKey: .to)
        try container.encode(kind, forKey: .kind)
        try container.encodeIfPresent(sdp, forKey: .sdp)
        if let candidate { try container.encode(candidate, forKey: .candidate) }
        try container.encodeIfPresent(clientId, forKey: .clientId)
    }

    /// Only the envelope is checked here (a broken one closes the connection); what it carries is
    /// checked by ``contentProblem``, and refused without closing it.
    public var problem: String? {
        (1...64).contains(to.count) ? clientIDProblem(clientId) : "to is a member id (1 to 64 characters)"
    }

    /// Why the signal cannot be relayed, or `nil`.
    public var contentProblem: String? {
        switch kind {
        case "offer", "answer":
            guard let sdp else { return "an \(kind) carries its session description as sdp" }
            guard sdp.utf8.count <= Self.maximumSDPBytes else {
                return "a session description is at most \(Self.maximumSDPBytes) bytes; this one is \(sdp.utf8.count)"
            }
            guard sdp.hasPrefix("v=0\r\n") || sdp.hasPrefix("v=0\n"), sdp.contains("\nm="), !sdp.contains("\0") else {
                return "sdp is not a session description (RFC 8866: it starts with v=0 and has a media line)"
            }
            return nil
        case "candidate":
            guard let candidate else { return "a candidate signal carries candidate (null for the end of candidates)" }
            if candidate == .null { return nil }
            guard case .object(let fields) = candidate, case .string(let line)? = fields["candidate"] else {
                return "a candidate is an object with a candidate string (RTCIceCandidate.toJSON())"
            }
            guard JSONText.text(candidate).utf8.count <= Self.maximumCandidateBytes, line.count <= 1_024 else {
                return "a candidate is at most \(Self.maximumCandidateBytes) bytes"
            }
            return nil
        case "bye", "wait": return nil
        default: return "a signal's kind is offer, answer, candidate, bye or wait"
        }
    }

}
