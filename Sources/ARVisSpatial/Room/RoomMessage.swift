public import ARVisSupport
import Foundation

/// A text frame a room member sends, read and checked: a JSON message with a `type`, or the OpenTok
/// sample's legacy `x:y:z:tapX:tapY` signal.
///
/// The server reads every text frame with ``init(text:)`` before it acts, and a device may write its
/// messages with ``text``: the two agree, so a message written reads back to itself.
public enum RoomMessage: Sendable, Hashable {
    /// Place an annotation where a tap's ray meets the world.
    case annotate(AnnotateMessage)
    /// Delete a stored annotation.
    case deleteAnnotation(IdentifierMessage)
    /// Plant a tree, as `POST …/trees` does.
    case plant(PlantMessage)
    /// Plant a ReforestAR tap group, as `POST …/trees/groups` does.
    case plantGroup(PlantGroupMessage)
    /// Remove a planted tree.
    case removeTree(IdentifierMessage)
    /// Take back a tap group.
    case removeTreeGroup(IdentifierMessage)
    /// The planes the publishing device has found.
    case planes(PlanesMessage)
    /// WebRTC signalling for one member, or for the server's SFU.
    case signal(SignalMessage)
    /// A mark in the picture of a video that carries no pose.
    case mark(MarkMessage)
    /// Where the project's frame lies in the publishing device's session.
    case projectFrame(ProjectFrameMessage)
    /// The OpenTok sample's `x:y:z:tapX:tapY`, the tap in view points.
    case legacy(AnnotationSignal)
    /// A request for TURN credentials, sent when the member starts video and again before the
    /// credentials it holds expire.
    case turnCredentials

    /// The longest annotation or mark text, in characters.
    public static let maximumTextLength = 2_000
    /// The longest annotation or mark text, in bytes of UTF-8 (2 000 characters of any script fit).
    public static let maximumTextBytes = 8_000

    /// The `type`s a JSON message may have.
    public static let types = [
        "annotate", "deleteAnnotation", "mark", "plant", "plantGroup", "removeTree", "removeTreeGroup", "planes",
        "signal", "turnCredentials", "projectFrame",
    ]

    /// Reads a text frame: JSON when it starts with `{`, else the legacy signal.
    /// - Throws: ``SpatialError`` `invalidMessage` when a JSON message is not its type's shape or its
    ///   values are out of range; `unsupportedMessage` for an unknown type or a text that is neither
    ///   form.
    public init(text: String) throws(SpatialError) {
        guard text.first == "{" else {
            do { self = .legacy(try AnnotationSignal(legacy: text)) } catch {
                throw SpatialError(
                    .unsupportedMessage,
                    "a text frame is a JSON message or a legacy x:y:z:tapX:tapY signal: \(error.message)")
            }
            return
        }
        let data = Data(text.utf8)
        guard let type = try? JSONDecoder().decode(Envelope.self, from: data).type else {
            throw SpatialError(.invalidMessage, "a message is a JSON object with a \"type\"")
        }
        switch type {
        case "annotate": self = .annotate(try Self.decode(data))
        case "deleteAnnotation": self = .deleteAnnotation(try Self.decode(data))
        case "plant": self = .plant(try Self.decode(data))
        case "plantGroup": self = .plantGroup(try Self.decode(data))
        case "removeTree": self = .removeTree(try Self.decode(data))
        case "removeTreeGroup": self = .removeTreeGroup(try Self.decode(data))
        case "planes": self = .planes(try Self.decode(data))
        case "signal": self = .signal(try Self.decode(data))
        case "mark": self = .mark(try Self.decode(data))
        case "projectFrame": self = .projectFrame(try Self.decode(data))
        case "turnCredentials": self = .turnCredentials
        default:
            throw SpatialError(
                .unsupportedMessage,
                "unknown message type \"\(type.prefix(40))\": a room takes \(Self.types.joined(separator: ", "))")
        }
    }

    /// The message as a text frame: JSON with its `type` (keys sorted), or the legacy signal's five
    /// numbers.
    public var text: String {
        switch self {
        case .annotate(let message): Self.json(message, type: "annotate")
        case .deleteAnnotation(let message): Self.json(message, type: "deleteAnnotation")
        case .plant(let message): Self.json(message, type: "plant")
        case .plantGroup(let message): Self.json(message, type: "plantGroup")
        case .removeTree(let message): Self.json(message, type: "removeTree")
        case .removeTreeGroup(let message): Self.json(message, type: "removeTreeGroup")
        case .planes(let message): Self.json(message, type: "planes")
        case .signal(let message): Self.json(message, type: "signal")
        case .mark(let message): Self.json(message, type: "mark")
        case .projectFrame(let message): Self.json(message, type: "projectFrame")
        case .turnCredentials: #"{"type":"turnCredentials"}"#
        case .legacy(let signal):
            [
                signal.legacyPoint?.x ?? 0, signal.legacyPoint?.y ?? 0, signal.legacyPoint?.z ?? 0, signal.tap.x,
                signal.tap.y,
            ]
            .map { "\($0)" }.joined(separator: ":")
        }
    }

    fileprivate struct Envelope: Codable {
        let type: String
    }

    private static func decode<Message: Decodable & RoomMessageContent>(_ data: Data) throws(SpatialError) -> Message {
        let message: Message
        do { message = try JSONDecoder().decode(Message.self, from: data) } catch {
            throw SpatialError(.invalidMessage, "a \(Message.name) message is \(Message.shape)")
        }
        if let problem = message.problem { throw SpatialError(.invalidMessage, problem) }
        return message
    }

    /// `message`'s fields and its `type`, as JSON text (`null` for a number JSON cannot hold, which
    /// no checked message has).
    private static func json(_ message: some Encodable, type: String) -> String {
        JSONText.text(Typed(type: type, message: message))
    }
}

/// A message's fields and its `type`, in one JSON object.
private struct Typed<Message: Encodable>: Encodable {
    var type: String
    var message: Message

    func encode(to encoder: any Encoder) throws {
        try message.encode(to: encoder)
        try RoomMessage.Envelope(type: type).encode(to: encoder)
    }
}

/// A room message that checks its own values after decoding.
protocol RoomMessageContent {
    /// The message's type, for errors.
    static var name: String { get }
    /// Its JSON shape, for errors.
    static var shape: String { get }
    /// What is wrong with the values, or `nil`.
    var problem: String? { get }
}

/// Why a message's `clientId` is refused, or `nil`.
func clientIDProblem(_ clientID: String?) -> String? {
    guard let clientID else { return nil }
    return (1...100).contains(clientID.count) ? nil : "a clientId is 1 to 100 characters"
}
