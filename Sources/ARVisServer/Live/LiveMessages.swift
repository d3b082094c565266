import ARVisSpatial
import ARVisStore
import ARVisSupport
import Foundation

/// The JSON text messages of the live streams (WebSocket text frames, and the `data:` of
/// Server-Sent Events), each made once and sent to every subscriber.
///
/// Spec stream (`/live/{project}/{spec}`):
/// - `{"type":"spec","name","version","etag","changed":[ids],"redrawn":[ids],"removed":[ids],"spec":{…}}`
///   — on connect (unless the client holds the current version) and on every saved version;
///   `changed` lists the widgets whose component or placement differs from the version the client
///   holds (every widget when it holds none), `redrawn` those of them whose picture differs (not
///   only moved).
/// - `{"type":"rows","dataset","widgets":[ids],"reset","rows":[{"seq","at","values":{…}}]}` — rows of a
///   dataset a widget follows; `reset: true` replaces what the device holds (the window on connect).
/// - `{"type":"deleted","name"}` — the spec was deleted.
///
/// Room stream (`/live/{project}/rooms/{room}`) besides binary pose packets:
/// - `{"type":"welcome","room","role","seq","annotations":[…] or null}` — first; `annotations` is null
///   for a member resuming with `since` (the events it missed follow). Annotation, tree and anchor
///   messages are idempotent by `id`: a member may see one both in `welcome` and as an event.
/// - `{"type":"annotation","seq","annotation":{…}}`, `{"type":"tree","seq","tree":{…}}`,
///   `{"type":"anchor","seq","anchor":{…}}`, and `annotationDeleted`, `treeRemoved`, `anchorDeleted`
///   with the `id`.
/// - `{"type":"mark","id","tap","text","author","clientId","at"}` — a mark in the picture of a video
///   without a pose, to every member; not stored.
/// - `{"type":"refused","clientId","code","message"}` — a change the server would not make (a tree too
///   close to another, a tap on a frame it no longer holds), sent to its sender only.
enum LiveMessages {
    /// A spec version, with `json` (the spec writer's canonical JSON of it) as its `spec`, as it is:
    /// a large spec is not read and written again for every version sent.
    static func spec(
        name: String, version: SpecVersion, changed: [String], redrawn: [String], removed: [String], json: String
    ) -> String {
        struct Spec: Encodable {
            var type = "spec"
            var name: String
            var version: Int
            var etag: String
            var changed: [String]
            var redrawn: [String]
            var removed: [String]
        }
        let envelope = text(
            Spec(
                name: name, version: version.version, etag: version.etag, changed: changed, redrawn: redrawn,
                removed: removed))
        return #"{"spec":"# + json + "," + envelope.dropFirst()
    }

    static func deleted(name: String) -> String {
        struct Deleted: Encodable {
            var type = "deleted"
            var name: String
        }
        return text(Deleted(name: name))
    }

    static func rows(dataset: String, widgets: [String], rows: [DatasetRow], reset: Bool) -> String {
        struct Rows: Encodable {
            var type = "rows"
            var dataset: String
            var widgets: [String]
            var reset: Bool
            var rows: [Row]
        }
        return text(Rows(dataset: dataset, widgets: widgets, reset: reset, rows: rows.map(Row.init)))
    }

    /// One dataset row: `{"seq", "at", "values"}`.
    struct Row: Encodable {
        var seq: Int64
        var at: String
        var values: JSONValue

        init(_ row: DatasetRow) {
            seq = row.sequence
            at = row.createdAt.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
            values = LiveMessages.value(of: row.json)
        }
    }

    /// `{"rows": [row, …], "more"?: true}`: a dataset's rows as `GET …/rows` answers them; `more` when
    /// older rows asked for were left out for the answer's size.
    static func rowList(_ rows: [DatasetRow], more: Bool = false) -> String {
        struct RowList: Encodable {
            var rows: [Row]
            var more: Bool?
        }
        return text(RowList(rows: rows.map(Row.init), more: more ? true : nil))
    }

    /// `annotations`: the room's, for a member joining afresh; `nil` for one resuming (the events it
    /// missed follow, and it keeps what it holds). `introduction`: the member's role and id, who
    /// else is in the room (whom WebRTC signals go to), the ICE servers for video and whether to
    /// send it only through TURN.
    static func welcome(
        room: String, sequence: Int64, annotations: [Annotation]?, introduction: Room.Introduction
    ) -> String {
        struct Welcome: Encodable {
            var room: String
            var role: String
            var seq: Int64
            var annotations: [Components.Schemas.Annotation]?
            var you: String
            var members: [Room.Profile]
            var iceServers: [ICEServer]
            var turn: Bool
            var iceTransportPolicy: String
            var sfu: Room.Introduction.SFU?

            enum CodingKeys: CodingKey {
                case type, room, role, seq, annotations, you, members, iceServers, turn, iceTransportPolicy, sfu
            }

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode("welcome", forKey: .type)
                try container.encode(room, forKey: .room)
                try container.encode(role, forKey: .role)
                try container.encode(seq, forKey: .seq)
                try container.encode(annotations, forKey: .annotations)  // null, not absent, when resuming
                try container.encode(you, forKey: .you)
                try container.encode(members, forKey: .members)
                try container.encode(iceServers, forKey: .iceServers)
                try container.encode(turn, forKey: .turn)
                try container.encode(iceTransportPolicy, forKey: .iceTransportPolicy)
                try container.encodeIfPresent(sfu, forKey: .sfu)
            }
        }
        return text(
            Welcome(
                room: room, role: introduction.member.role, seq: sequence,
                annotations: annotations?.map { ARVisAPI.schema($0) }, you: introduction.member.id,
                members: introduction.others, iceServers: introduction.iceServers, turn: introduction.offersTURN,
                iceTransportPolicy: introduction.iceTransportPolicy, sfu: introduction.sfu))
    }

    /// A room event carrying one item: `{"type", "seq", NAME: item}`.
    private struct Event<Item: Encodable>: Encodable {
        var type: String
        var seq: Int64
        var item: Item

        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(type, forKey: Key(stringValue: "type"))
            try container.encode(seq, forKey: Key(stringValue: "seq"))
            try container.encode(item, forKey: Key(stringValue: type))
        }
    }

    static func annotation(_ annotation: Annotation, sequence: Int64) -> String {
        text(Event(type: "annotation", seq: sequence, item: ARVisAPI.schema(annotation)))
    }

    static func tree(_ tree: Tree, sequence: Int64) -> String {
        text(Event(type: "tree", seq: sequence, item: ARVisAPI.schema(tree)))
    }

    static func anchor(_ anchor: Anchor, sequence: Int64) -> String {
        text(Event(type: "anchor", seq: sequence, item: ARVisAPI.schema(anchor)))
    }

    /// `annotationDeleted`, `treeRemoved` or `anchorDeleted`.
    static func removal(_ type: String, id: String, sequence: Int64) -> String {
        struct Removal: Encodable {
            var type: String
            var seq: Int64
            var id: String
        }
        return text(Removal(type: type, seq: sequence, id: id))
    }

    /// `{"type": "memberJoined", "member": {"id", "role", "name"}}`.
    static func memberJoined(_ profile: Room.Profile) -> String {
        struct Joined: Encodable {
            var type = "memberJoined"
            var member: Room.Profile
        }
        return text(Joined(member: profile))
    }

    /// `{"type": "memberLeft", "id"}`.
    static func memberLeft(id: String) -> String {
        struct Left: Encodable {
            var type = "memberLeft"
            var id: String
        }
        return text(Left(id: id))
    }

    /// A WebRTC signal relayed to the member it was addressed to: `{"type": "signal", "from",
    /// "kind", "sdp"?, "candidate"?}`.
    static func signal(from: String, _ message: SignalMessage) -> String {
        signal(from: from, kind: message.kind, sdp: message.sdp, candidate: message.candidate)
    }

    /// `{"type": "signal", "from", "kind", "sdp"?, "candidate"?}`.
    static func signal(from: String, kind: String, sdp: String? = nil, candidate: JSONValue? = nil) -> String {
        struct Relayed: Encodable {
            var type = "signal"
            var from: String
            var kind: String
            var sdp: String?
            var candidate: JSONValue?
        }
        return text(Relayed(from: from, kind: kind, sdp: sdp, candidate: candidate))
    }

    /// A mark in the picture of a video without a pose: `{"type": "mark", "id", "tap", "text",
    /// "author", "clientId", "at"}` (`at`: milliseconds since 1970).
    static func mark(tap: [Double], text: String?, author: String?, clientID: String?) -> String {
        struct Mark: Encodable {
            var type = "mark"
            var id = UUID().uuidString.lowercased()
            var tap: [Double]
            var text: String?
            var author: String?
            var clientId: String?
            var at = Int64(Date().timeIntervalSince1970 * 1_000)
        }
        return Self.text(Mark(tap: tap, text: text, author: author, clientId: clientID))
    }

    /// `{"type": "turnCredentials", "iceServers": [...], "expires"}`: the STUN servers and the TURN
    /// servers with a member's credentials, and when those expire (Unix seconds).
    static func turnCredentials(_ servers: [ICEServer], expires: Int) -> String {
        struct Credentials: Encodable {
            var type = "turnCredentials"
            var iceServers: [ICEServer]
            var expires: Int
        }
        return text(Credentials(iceServers: servers, expires: expires))
    }

    /// A change refused to its sender: `{"type": "refused", "clientId", "code", "message", "details"?}`.
    static func refused(
        clientID: String?, code: APIError.Code, message: String, details: APIError.Details? = nil
    ) -> String {
        struct Refused: Encodable {
            var clientId: String?
            var code: APIError.Code
            var message: String
            var details: APIError.Details?

            enum CodingKeys: CodingKey { case type, clientId, code, message, details }

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode("refused", forKey: .type)
                try container.encode(clientId, forKey: .clientId)  // null when the change had no client id
                try container.encode(code, forKey: .code)
                try container.encode(message, forKey: .message)
                try container.encodeIfPresent(details, forKey: .details)
            }
        }
        return text(Refused(clientId: clientID, code: code, message: message, details: details))
    }

    /// The `data:` of a Server-Sent Events `close` event: `{"code", "reason"}`.
    static func close(code: UInt16, reason: String) -> String {
        struct Close: Encodable {
            var code: UInt16
            var reason: String
        }
        return text(Close(code: code, reason: reason))
    }

    /// JSON text this server wrote (a stored row, the spec writer's canonical text), as a value to
    /// embed; `null` if it no longer reads.
    static func value(of json: String) -> JSONValue {
        (try? JSONDecoder().decode(JSONValue.self, from: Data(json.utf8))) ?? .null
    }

    private static func text(_ value: some Encodable) -> String { JSONText.text(value) }
}
