import ARVisSupport
import Foundation

/// `{"type": "signal", "to", "kind", "sdp"?, "candidate"?, "clientId"?}`: WebRTC signalling for one
/// member of the room — `offer` and `answer` (with `sdp`), `candidate` (an ICE candidate as
/// `RTCIceCandidate.toJSON()` gives it; `null` for the end of candidates), `bye`, or `wait` (a
/// publisher telling a member it has no place for it yet: an offer follows when one frees). The server
/// relays it to that member only, as `{"type": "signal", "from", …}`.
struct SignalMessage: Decodable, Checked {
    static let name = "signal"
    static let shape =
        "{\"type\": \"signal\", \"to\": member id, \"kind\": \"offer\" | \"answer\" | \"candidate\" | \"bye\" | \"wait\", \"sdp\"?, \"candidate\"?, \"clientId\"?}"
    /// The longest session description, in UTF-8 bytes (a camera track's offer is about 5 KB).
    static let maximumSDPBytes = 32_768
    /// The longest candidate, in UTF-8 bytes of its JSON.
    static let maximumCandidateBytes = 2_048

    var to: String
    var kind: String
    var sdp: String?
    /// `nil` when absent; ``JSONValue/null`` for the end of candidates.
    var candidate: JSONValue?
    var clientId: String?

    private enum CodingKeys: CodingKey { case to, kind, sdp, candidate, clientId }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        to = try container.decode(String.self, forKey: .to)
        kind = try container.decode(String.self, forKey: .kind)
        sdp = try container.decodeIfPresent(String.self, forKey: .sdp)
        // Present and null is the end of candidates, not "no candidate".
        candidate = container.contains(.candidate) ? try container.decode(JSONValue.self, forKey: .candidate) : nil
        clientId = try container.decodeIfPresent(String.self, forKey: .clientId)
        // A bye or a wait carries nothing: whatever came with it is not relayed.
        if kind == "bye" || kind == "wait" { (sdp, candidate) = (nil, nil) }
    }

    /// Only the envelope is checked here (a broken one closes the connection); what it carries is
    /// checked by ``contentProblem``, and refused without closing it.
    var problem: String? {
        (1...64).contains(to.count) ? checkClientID(clientId) : "to is a member id (1 to 64 characters)"
    }

    /// Why the signal cannot be relayed, or `nil`.
    var contentProblem: String? {
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
