import Foundation

/// Why a tap is refused: it is `[x, y]`, each from 0 to 1.
private func tapProblem(_ tap: [Double]) -> String? {
    tap.count == 2 && tap.allSatisfy({ $0.isFinite && (0...1).contains($0) })
        ? nil : "tap is [x, y], each a number from 0 to 1"
}

/// Why the text of `what` is refused: past ``RoomMessage/maximumTextLength`` characters or
/// ``RoomMessage/maximumTextBytes`` bytes of UTF-8 (a character may carry any number of combining
/// marks, so characters alone do not bound its size).
private func textProblem(_ text: String?, of what: String) -> String? {
    guard let text,
        text.utf8.count > RoomMessage.maximumTextBytes || text.count > RoomMessage.maximumTextLength
    else { return nil }
    return
        "\(what)'s text is at most \(RoomMessage.maximumTextLength) characters and \(RoomMessage.maximumTextBytes) bytes of UTF-8"
}

private func finite(_ numbers: [Double], count: Int) -> Bool {
    numbers.count == count && numbers.allSatisfy { $0.isFinite && abs($0) <= 1e6 }
}

/// `{"type": "annotate", "tap": [x, y], "frame"?, "pose"?, "onFloor"?, "depth"?, "text"?, "clientId"?}`:
/// the tap normalised to the frame (0…1 from its top-left). The ray goes through the camera of
/// `pose` (the Base64 pose packet a video frame carried) when given, else of the room's frame
/// `frame`, else of its latest; it lands on the nearest plane the device reported (and the floor,
/// y = 0, with `onFloor`), else 2 m along; with `depth`, that many metres along, always.
public struct AnnotateMessage: Codable, Hashable, Sendable, RoomMessageContent {
    static let name = "annotate"
    static let shape =
        "{\"type\": \"annotate\", \"tap\": [x, y] each 0…1, \"frame\"?: frame id, \"pose\"?: Base64 pose packet, \"onFloor\"?: bool, \"depth\"?: metres, \"text\"?, \"clientId\"?}"
    /// The tap, `[x, y]`, each 0…1 from the frame's top-left.
    public var tap: [Double]
    /// The room's frame whose pose the tap was made on; the latest when absent.
    public var frame: UInt32?
    /// The Base64 of the pose packet the video frame carried, which takes the place of `frame`.
    public var pose: String?
    /// Whether the floor (y = 0) counts as a plane the ray may land on.
    public var onFloor: Bool?
    /// Metres along the ray to place the annotation at, planes or not.
    public var depth: Double?
    /// The annotation's text.
    public var text: String?
    /// The sender's id for this change, echoed in a refusal and kept against retries.
    public var clientId: String?

    /// Creates a message.
    public init(
        tap: [Double], frame: UInt32? = nil, pose: String? = nil, onFloor: Bool? = nil, depth: Double? = nil,
        text: String? = nil, clientId: String? = nil
    ) {
        (self.tap, self.frame, self.pose, self.onFloor) = (tap, frame, pose, onFloor)
        (self.depth, self.text, self.clientId) = (depth, text, clientId)
    }

    /// The longest Base64 text a 62-byte pose packet can take.
    public static let maximumPoseText = 88

    /// What is wrong with the values (the message a room refuses it with), or `nil`.
    public var problem: String? {
        if let problem = tapProblem(tap) { return problem }
        if let depth, !(depth.isFinite && depth > 0 && depth <= 1000) {
            return "depth is a number of metres above 0, at most 1000"
        }
        if let pose, pose.utf8.count > Self.maximumPoseText {
            return "pose is the Base64 of a 62-byte pose packet (at most \(Self.maximumPoseText) characters)"
        }
        return textProblem(text, of: "an annotation") ?? clientIDProblem(clientId)
    }
}

/// `{"type": "mark", "tap": [x, y], "text"?, "clientId"?}`: a mark on a video that carries no pose,
/// at the tap (normalised to the picture, 0…1 from its top-left).
public struct MarkMessage: Codable, Hashable, Sendable, RoomMessageContent {
    static let name = "mark"
    static let shape = "{\"type\": \"mark\", \"tap\": [x, y] each 0…1, \"text\"?, \"clientId\"?}"
    /// The tap, `[x, y]`, each 0…1 from the picture's top-left.
    public var tap: [Double]
    /// The mark's text.
    public var text: String?
    /// The sender's id for this change, echoed in a refusal.
    public var clientId: String?

    /// Creates a message.
    public init(tap: [Double], text: String? = nil, clientId: String? = nil) {
        (self.tap, self.text, self.clientId) = (tap, text, clientId)
    }

    /// What is wrong with the values (the message a room refuses it with), or `nil`.
    public var problem: String? {
        if let problem = tapProblem(tap) { return problem }
        return textProblem(text, of: "a mark") ?? clientIDProblem(clientId)
    }
}

/// `{"type": "deleteAnnotation" | "removeTree", "id", "clientId"?}`.
public struct IdentifierMessage: Codable, Hashable, Sendable, RoomMessageContent {
    static let name = "deleteAnnotation or removeTree"
    static let shape = "{\"type\", \"id\": string, \"clientId\"?}"
    /// The annotation's or tree's id.
    public var id: String
    /// The sender's id for this change, echoed in a refusal.
    public var clientId: String?

    /// Creates a message.
    public init(id: String, clientId: String? = nil) {
        (self.id, self.clientId) = (id, clientId)
    }

    /// What is wrong with the values (the message a room refuses it with), or `nil`.
    public var problem: String? {
        (1...100).contains(id.count) ? clientIDProblem(clientId) : "an id is 1 to 100 characters"
    }
}

/// `{"type": "plant", "species", "position": {"x", "y"?, "z"}, "clientId"?}`, as `POST …/trees` takes.
public struct PlantMessage: Codable, Hashable, Sendable, RoomMessageContent {
    /// Where the tree goes, in metres; `y` is the ground's height there when absent.
    public struct Position: Codable, Hashable, Sendable {
        /// Along the project frame's x axis.
        public var x: Double
        /// The height, when known.
        public var y: Double?
        /// Along the project frame's z axis.
        public var z: Double

        /// Creates a position.
        public init(x: Double, y: Double? = nil, z: Double) {
            (self.x, self.y, self.z) = (x, y, z)
        }
    }

    static let name = "plant"
    static let shape =
        "{\"type\": \"plant\", \"species\": string, \"position\": {\"x\", \"y\"?, \"z\"} in metres, \"clientId\"?}"
    /// The species' name, as the project's planting knows it.
    public var species: String
    /// Where it goes.
    public var position: Position
    /// The sender's id for this change, echoed in a refusal and kept against retries.
    public var clientId: String?

    /// Creates a message.
    public init(species: String, position: Position, clientId: String? = nil) {
        (self.species, self.position, self.clientId) = (species, position, clientId)
    }

    /// What is wrong with the values (the message a room refuses it with), or `nil`.
    public var problem: String? {
        if species.isEmpty || species.count > 200 { return "a species is 1 to 200 characters" }
        if !finite([position.x, position.y ?? 0, position.z], count: 3) {
            return "a position is three finite numbers in metres"
        }
        return clientIDProblem(clientId)
    }
}

/// `{"type": "plantGroup", "species", "position": {"x", "y"?, "z"}, "count"?, "scale"?, "session",
/// "clientId"?}`: a ReforestAR tap group, as `POST …/trees/groups` takes.
public struct PlantGroupMessage: Codable, Hashable, Sendable, RoomMessageContent {
    static let name = "plantGroup"
    static let shape =
        "{\"type\": \"plantGroup\", \"species\": string, \"position\": {\"x\", \"y\"?, \"z\"} in metres, \"count\"?: 1…10, \"scale\"?: 0.01…5.01, \"session\": string, \"clientId\"?}"
    /// The species' name, as the project's planting knows it.
    public var species: String
    /// The tap's hit point, in the project's frame.
    public var position: PlantMessage.Position
    /// Trees per tap.
    public var count: Int?
    /// ReforestAR's scale slider.
    public var scale: Double?
    /// The device's AR session.
    public var session: String
    /// The sender's id for this change, echoed in a refusal and kept against retries.
    public var clientId: String?

    /// Creates a message.
    public init(
        species: String, position: PlantMessage.Position, count: Int? = nil, scale: Double? = nil, session: String,
        clientId: String? = nil
    ) {
        (self.species, self.position, self.count, self.scale) = (species, position, count, scale)
        (self.session, self.clientId) = (session, clientId)
    }

    /// What is wrong with the shape of the values (the message a room refuses it with), or `nil`;
    /// the ranges are the planting's to check, as for `POST …/trees/groups`.
    public var problem: String? {
        PlantMessage(species: species, position: position, clientId: clientId).problem
            ?? (session.isEmpty || session.count > 100 ? "a session is 1 to 100 characters" : nil)
    }
}

/// `{"type": "planes", "planes": [{"point": [x, y, z], "normal": [x, y, z]}]}`: the planes the device has found.
public struct PlanesMessage: Codable, Hashable, Sendable, RoomMessageContent {
    /// One plane: a point on it and its normal, `[x, y, z]` each, in metres.
    public struct PlaneMessage: Codable, Hashable, Sendable {
        /// A point on the plane.
        public var point: [Double]
        /// The plane's normal (any length above 0).
        public var normal: [Double]

        /// Creates a plane.
        public init(point: [Double], normal: [Double]) {
            (self.point, self.normal) = (point, normal)
        }
    }

    static let name = "planes"
    static let shape = "{\"type\": \"planes\", \"planes\": [{\"point\": [x, y, z], \"normal\": [x, y, z]}]}"
    /// The planes, at most ``maximumCount``.
    public var planes: [PlaneMessage]

    /// The most planes a room keeps.
    public static let maximumCount = 64

    /// Creates a message.
    public init(planes: [PlaneMessage]) {
        self.planes = planes
    }

    /// What is wrong with the values (the message a room refuses it with), or `nil`.
    public var problem: String? {
        if planes.count > Self.maximumCount { return "a room keeps at most \(Self.maximumCount) planes" }
        for plane in planes {
            guard finite(plane.point, count: 3), finite(plane.normal, count: 3) else {
                return "a plane's point and normal are three finite numbers each"
            }
            guard plane.normal.map({ $0 * $0 }).reduce(0, +) > 1e-12 else { return "a plane's normal must not be zero" }
        }
        return nil
    }
}

/// `{"type": "projectFrame", "position"?: [x, y, z], "orientation"?: [x, y, z, w]}`: where the
/// project's frame lies in the publishing device's session (its origin, metres, and its turn, a
/// quaternion), as the device found it (marker, anchor, taps or GPS), so members draw the project's
/// bubbles and trees in the room's coordinates; neither field when the device has not found it.
public struct ProjectFrameMessage: Codable, Hashable, Sendable, RoomMessageContent {
    static let name = "projectFrame"
    static let shape = "{\"type\": \"projectFrame\", \"position\"?: [x, y, z], \"orientation\"?: [x, y, z, w]}"
    /// The frame's origin in the session, metres.
    public var position: [Double]?
    /// The frame's turn in the session, a quaternion (any length above 0).
    public var orientation: [Double]?

    /// Creates a message; `nil` for both: the device has not found the frame.
    public init(position: [Double]? = nil, orientation: [Double]? = nil) {
        (self.position, self.orientation) = (position, orientation)
    }

    /// What is wrong with the values (the message a room refuses it with), or `nil`.
    public var problem: String? {
        switch (position, orientation) {
        case (nil, nil): return nil
        case (let position?, let orientation?):
            guard finite(position, count: 3), finite(orientation, count: 4),
                orientation.map({ $0 * $0 }).reduce(0, +) > 1e-12
            else { return "a project frame's position is three finite numbers and its orientation four, not all 0" }
            return nil
        default: return "a project frame has both a position and an orientation, or neither"
        }
    }
}
