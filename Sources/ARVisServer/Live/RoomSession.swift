import ARVisSpatial
import ARVisSpec
import ARVisStore
import ARVisSupport
import Foundation
import HTTPTypes
import NIOCore
import WSCore

/// One member's connection to a room: reads what it sends, checks it, and acts.
///
/// - Binary frames are ARVis pose packets, from the publisher only.
/// - Text frames are JSON messages — `annotate`, `deleteAnnotation`, `plant`, `removeTree` (editors),
///   `planes` (the publisher), `signal` (WebRTC signalling to one member) — or the OpenTok sample's
///   legacy `x:y:z:tapX:tapY` signal.
///
/// A frame that breaks the protocol closes the connection with a code and a reason; a change the
/// server refuses (a tree too close to another, a tap on a frame it no longer holds) is answered
/// with `refused` to the sender, and the connection stays. Every text message is let through only
/// while the member still holds the access it joined with (poses, many a second, are not checked
/// one by one: a member whose access ends is closed by the live hub).
struct RoomSession: Sendable {
    let api: ARVisAPI
    let joining: LiveRoutes.RoomAccess
    /// What the member joined with, checked again before each message that changes the room.
    let grant: LiveHub.Grant
    let room: Room
    let token: Int
    let outbox: Outbox
    /// Who this member is to the others.
    let profile: Room.Profile
    /// The server's SFU, when it has one.
    let sfu: VideoRelay?

    /// The longest annotation text, in characters.
    static let maximumTextLength = 2_000

    func receive(_ message: WebSocketMessage) async throws {
        switch message {
        case .binary(let buffer): try publish(buffer)
        case .text(let text):
            try await requireAccess()
            if text.first == "{" { try await handle(json: text) } else { try await annotate(legacy: text) }
        }
    }

    /// Closes the connection with ``LiveClose/revoked(_:)`` when the member lost its access.
    private func requireAccess() async throws {
        do {
            try await api.recheck(grant)
        } catch let refusal as APIError {
            throw LiveClose.revoked(refusal.message)
        }
    }

    // MARK: Poses

    private func publish(_ buffer: ByteBuffer) throws {
        guard joining.publishes else {
            throw LiveClose.notAllowed("only the room's publisher sends pose packets: connect with ?role=publisher")
        }
        let packet: PosePacket
        do {
            packet = try buffer.withUnsafeReadableBytes { raw in try PosePacket(decoding: raw) }
        } catch let error as SpatialError {
            throw LiveClose.invalid(error.message)
        }
        room.publish(packet, bytes: buffer, from: token)
    }

    // MARK: JSON messages

    private struct Envelope: Decodable {
        let type: String
    }

    private func handle(json text: String) async throws {
        let data = Data(text.utf8)
        guard let type = try? JSONDecoder().decode(Envelope.self, from: data).type else {
            throw LiveClose.invalid("a message is a JSON object with a \"type\"")
        }
        switch type {
        case "annotate": try await annotate(try decode(AnnotateMessage.self, data))
        case "deleteAnnotation": try await delete(try decode(IdentifierMessage.self, data))
        case "plant": try await plant(try decode(PlantMessage.self, data))
        case "removeTree": try await removeTree(try decode(IdentifierMessage.self, data))
        case "planes": try setPlanes(try decode(PlanesMessage.self, data))
        case "signal": await relay(try decode(SignalMessage.self, data), text: text)
        case "mark": try mark(try decode(MarkMessage.self, data))
        default:
            throw LiveClose.unsupported(
                "unknown message type \"\(type.prefix(40))\": a room takes annotate, deleteAnnotation, mark, plant, removeTree, planes and signal"
            )
        }
    }

    private func decode<T: Decodable & Checked>(_ type: T.Type, _ data: Data) throws -> T {
        let message: T
        do { message = try JSONDecoder().decode(T.self, from: data) } catch {
            throw LiveClose.invalid("a \(T.name) message is \(T.shape)")
        }
        if let problem = message.problem { throw LiveClose.invalid(problem) }
        return message
    }

    /// An editor's change; a device on a room link may make only the changes `linkMay` says
    /// (annotations), never stored planting.
    private func requireEditor(_ what: String, linkMay: Bool = false) throws {
        if joining.link != nil, !linkMay {
            throw LiveClose.notAllowed("\(what) is not for a room link: it shares a view and annotates")
        }
        guard let role = joining.access.role, role >= .editor else {
            throw LiveClose.notAllowed("\(what) needs the editor role in this project")
        }
    }

    private func refuse(_ clientID: String?, _ code: String, _ message: String) {
        outbox.send(.text(ByteBuffer(string: LiveMessages.refused(clientID: clientID, code: code, message: message))))
    }

    /// Runs a change, answering a refusal (a `4xx` of the API) to the sender.
    private func change(_ clientID: String?, _ work: () async throws -> Void) async throws {
        do { try await work() } catch let error as APIError where error.status.code < 500 {
            refuse(clientID, error.code, error.message)
        }
    }

    // MARK: WebRTC signalling

    /// Relays a signal to the member it names, in this room, or to the SFU; refuses one for nobody
    /// here or one whose offer, answer or candidate does not read. With an SFU, a publisher's
    /// `wait` to a member has the SFU send that member the video instead.
    /// On a shared store, a member's signal to the SFU that this instance's relay does not serve
    /// goes to the instance whose relay does (the one its publisher is on).
    private func relay(_ signal: SignalMessage, text: String) async {
        if let problem = signal.contentProblem { return refuse(signal.clientId, "invalidSignal", problem) }
        if signal.to == VideoRelay.memberID {
            guard let sfu else {
                return refuse(
                    signal.clientId, "unknownMember",
                    "this server forwards no video (arvis serve --sfu): address signals to the room's members")
            }
            if !joining.publishes, await !sfu.knows(profile.id), let exchange = room.exchange {
                return exchange.toSFU(text, from: profile, in: joining.key)
            }
            if let problem = await sfu.receive(signal, from: profile, recipient: .local(outbox), in: joining.key) {
                refuse(signal.clientId, "invalidSignal", problem)
            }
            return
        }
        guard let recipient = room.recipient(ofMember: signal.to, except: token) else {
            return refuse(
                signal.clientId, "unknownMember",
                "no member \(signal.to.prefix(64)) is in this room (it may have left): address a signal to an id from welcome's members or a memberJoined"
            )
        }
        if signal.kind == "wait", joining.publishes, let sfu {
            return await sfu.forward(to: signal.to, recipient: recipient, from: profile.id, in: joining.key)
        }
        recipient.send(LiveMessages.signal(from: profile.id, signal))
    }

    // MARK: Annotations

    private func annotate(_ message: AnnotateMessage) async throws {
        try requireEditor("annotating", linkMay: true)
        let scene: (pose: PosePacket, planes: [Plane])
        if let packet = message.pose {
            // The pose a video frame carried: the frame the expert saw, however old or cropped.
            guard let bytes = Data(base64Encoded: packet), let pose = try? PosePacket(decoding: [UInt8](bytes)) else {
                return refuse(
                    message.clientId, "invalidPose", "pose is the Base64 of a 62-byte ARVis pose packet with its CRC-32"
                )
            }
            guard pose.intrinsics.x > 0, pose.intrinsics.y > 0, pose.viewport.x > 0, pose.viewport.y > 0,
                [pose.position.x, pose.position.y, pose.position.z].allSatisfy({
                    Double(abs($0)) <= ARVisAPI.worldRadius
                })
            else {
                return refuse(
                    message.clientId, "invalidPose",
                    "a pose needs focal lengths and a viewport above 0, and a position within 100 km on each axis"
                )
            }
            scene = (pose, room.scene(at: nil)?.planes ?? [])
        } else if let known = room.scene(at: message.frame) {
            scene = known
        } else {
            let reason =
                message.frame.map {
                    "the room no longer holds the pose of frame \($0) (it keeps the last \(Room.framesKept))"
                }
                ?? "the room has no pose yet: the device has not published one"
            return refuse(message.clientId, "unknownFrame", reason)
        }
        let planes = message.onFloor == true ? scene.planes + [.horizontal(y: 0)] : scene.planes
        try await place(
            tap: SIMD2(message.tap[0], message.tap[1]), on: (scene.pose, planes), depth: message.depth,
            text: message.text, clientID: message.clientId)
    }

    /// The OpenTok sample's signal: the tap is in view points, read against the latest frame's size.
    private func annotate(legacy text: String) async throws {
        let signal: AnnotationSignal
        do { signal = try AnnotationSignal(legacy: text) } catch {
            throw LiveClose.unsupported(
                "a text frame is a JSON message or a legacy x:y:z:tapX:tapY signal: \(error.message)")
        }
        try requireEditor("annotating", linkMay: true)
        guard let scene = room.scene(at: nil) else {
            return refuse(nil, "unknownFrame", "the room has no pose yet: the device has not published one")
        }
        let size = SIMD2(Double(scene.pose.viewport.x), Double(scene.pose.viewport.y))
        let tap = signal.tap / size
        guard size.x > 0, size.y > 0, (0...1).contains(tap.x), (0...1).contains(tap.y) else {
            return refuse(
                nil, "outsideFrame",
                "the tap (\(signal.tap.x), \(signal.tap.y)) is outside the \(scene.pose.viewport.x)×\(scene.pose.viewport.y) frame"
            )
        }
        try await place(tap: tap, on: scene, depth: nil, text: nil, clientID: nil)
    }

    /// Places the annotation where the tap's ray through `scene`'s camera meets its nearest plane,
    /// else `depth` metres along it (the fixed depth without one); with a `depth`, there always.
    private func place(
        tap: SIMD2<Double>, on scene: (pose: PosePacket, planes: [Plane]), depth: Double?, text: String?,
        clientID: String?
    ) async throws {
        let point = RemoteAnnotation.worldPoint(
            tap: tap, camera: scene.pose.camera, planes: depth == nil ? scene.planes : [],
            depth: depth ?? RemoteAnnotation.fixedDepth)
        guard point.x.isFinite, point.y.isFinite, point.z.isFinite else {
            return refuse(clientID, "notFinite", "the tap does not meet the world through that frame's camera")
        }
        guard max(abs(point.x), abs(point.y), abs(point.z)) <= ARVisAPI.worldRadius else {
            return refuse(
                clientID, "outOfRange", "the tap lands over 100 km away, beyond any room's world")
        }
        let annotation = Annotation(
            room: joining.key.room, x: point.x, y: point.y, z: point.z, text: text, frame: Int64(scene.pose.frameID),
            author: joining.access.account?.username, clientID: clientID)
        try await change(clientID) {
            _ = try await answering { () async throws(StoreError) in
                try await api.store.placeAnnotation(
                    projectID: joining.key.projectID, annotation, authorID: joining.access.account?.id)
            }
        }
    }

    private func delete(_ message: IdentifierMessage) async throws {
        try requireEditor("deleting an annotation")
        guard
            try await api.store.annotation(projectID: joining.key.projectID, id: message.id)?.room == joining.key.room,
            try await api.store.deleteAnnotation(projectID: joining.key.projectID, id: message.id)
        else {
            return refuse(message.clientId, "notFound", "no annotation \(message.id) in this room")
        }
    }

    // MARK: Marks in the picture

    /// A mark on a video without a pose: it stays in the picture, is sent to every member (on every
    /// instance) and is not stored.
    private func mark(_ message: MarkMessage) throws {
        try requireEditor("marking the picture", linkMay: true)
        room.broadcastEverywhere(
            LiveMessages.mark(
                tap: message.tap, text: message.text, author: joining.access.account?.username,
                clientID: message.clientId))
    }

    // MARK: Planting

    private func plant(_ message: PlantMessage) async throws {
        try requireEditor("planting")
        let request = Components.Schemas.TreePlanting(
            species: message.species,
            position: .init(x: message.position.x, y: message.position.y, z: message.position.z),
            clientId: message.clientId)
        try await change(message.clientId) { _ = try await api.plant(request, in: joining.access) }
    }

    private func removeTree(_ message: IdentifierMessage) async throws {
        try requireEditor("removing a tree")
        guard try await api.store.removeTree(projectID: joining.key.projectID, id: message.id) else {
            return refuse(message.clientId, "notFound", "no tree \(message.id) in this project")
        }
    }

    // MARK: Planes

    private func setPlanes(_ message: PlanesMessage) throws {
        guard joining.publishes else { throw LiveClose.notAllowed("only the room's publisher reports planes") }
        room.setPlanes(
            message.planes.map {
                Plane(
                    point: Vec3($0.point[0], $0.point[1], $0.point[2]),
                    normal: Vec3($0.normal[0], $0.normal[1], $0.normal[2]))
            })
    }
}

/// A room message that checks its own values after decoding.
protocol Checked {
    /// The message's type, for errors.
    static var name: String { get }
    /// Its JSON shape, for errors.
    static var shape: String { get }
    /// What is wrong with the values, or `nil`.
    var problem: String? { get }
}

/// Why a message's `clientId` is refused, or `nil`.
func checkClientID(_ clientID: String?) -> String? {
    guard let clientID else { return nil }
    return (1...100).contains(clientID.count) ? nil : "a clientId is 1 to 100 characters"
}

private func finite(_ numbers: [Double], count: Int) -> Bool {
    numbers.count == count && numbers.allSatisfy { $0.isFinite && abs($0) <= 1e6 }
}

/// `{"type": "annotate", "tap": [x, y], "frame"?, "pose"?, "onFloor"?, "depth"?, "text"?, "clientId"?}`:
/// the tap normalised to the frame (0…1 from its top-left). The ray goes through the camera of
/// `pose` (the Base64 pose packet a video frame carried) when given, else of the room's frame
/// `frame`, else of its latest; it lands on the nearest plane the device reported (and the floor,
/// y = 0, with `onFloor`), else 2 m along; with `depth`, that many metres along, always.
struct AnnotateMessage: Decodable, Checked {
    static let name = "annotate"
    static let shape =
        "{\"type\": \"annotate\", \"tap\": [x, y] each 0…1, \"frame\"?: frame id, \"pose\"?: Base64 pose packet, \"onFloor\"?: bool, \"depth\"?: metres, \"text\"?, \"clientId\"?}"
    var tap: [Double]
    var frame: UInt32?
    var pose: String?
    var onFloor: Bool?
    var depth: Double?
    var text: String?
    var clientId: String?

    /// The longest Base64 text a 62-byte pose packet can take.
    static let maximumPoseText = 88

    var problem: String? {
        if tap.count != 2 || !tap.allSatisfy({ $0.isFinite && (0...1).contains($0) }) {
            return "tap is [x, y], each a number from 0 to 1"
        }
        if let depth, !(depth.isFinite && depth > 0 && depth <= 1000) {
            return "depth is a number of metres above 0, at most 1000"
        }
        if let pose, pose.utf8.count > Self.maximumPoseText {
            return "pose is the Base64 of a 62-byte pose packet (at most \(Self.maximumPoseText) characters)"
        }
        if let text, text.count > RoomSession.maximumTextLength {
            return "an annotation's text is at most \(RoomSession.maximumTextLength) characters"
        }
        return checkClientID(clientId)
    }
}

/// `{"type": "mark", "tap": [x, y], "text"?, "clientId"?}`: a mark on a video that carries no pose,
/// at the tap (normalised to the picture, 0…1 from its top-left).
struct MarkMessage: Decodable, Checked {
    static let name = "mark"
    static let shape = "{\"type\": \"mark\", \"tap\": [x, y] each 0…1, \"text\"?, \"clientId\"?}"
    var tap: [Double]
    var text: String?
    var clientId: String?

    var problem: String? {
        if tap.count != 2 || !tap.allSatisfy({ $0.isFinite && (0...1).contains($0) }) {
            return "tap is [x, y], each a number from 0 to 1"
        }
        if let text, text.count > RoomSession.maximumTextLength {
            return "a mark's text is at most \(RoomSession.maximumTextLength) characters"
        }
        return checkClientID(clientId)
    }
}

/// `{"type": "deleteAnnotation" | "removeTree", "id", "clientId"?}`.
struct IdentifierMessage: Decodable, Checked {
    static let name = "deleteAnnotation or removeTree"
    static let shape = "{\"type\", \"id\": string, \"clientId\"?}"
    var id: String
    var clientId: String?

    var problem: String? {
        (1...100).contains(id.count) ? checkClientID(clientId) : "an id is 1 to 100 characters"
    }
}

/// `{"type": "plant", "species", "position": {"x", "y"?, "z"}, "clientId"?}`, as `POST …/trees` takes.
struct PlantMessage: Decodable, Checked {
    struct Position: Decodable {
        var x: Double
        var y: Double?
        var z: Double
    }

    static let name = "plant"
    static let shape =
        "{\"type\": \"plant\", \"species\": string, \"position\": {\"x\", \"y\"?, \"z\"} in metres, \"clientId\"?}"
    var species: String
    var position: Position
    var clientId: String?

    var problem: String? {
        if species.isEmpty || species.count > 200 { return "a species is 1 to 200 characters" }
        if !finite([position.x, position.y ?? 0, position.z], count: 3) {
            return "a position is three finite numbers in metres"
        }
        return checkClientID(clientId)
    }
}

/// `{"type": "planes", "planes": [{"point": [x, y, z], "normal": [x, y, z]}]}`: the planes the device has found.
struct PlanesMessage: Decodable, Checked {
    struct PlaneMessage: Decodable {
        var point: [Double]
        var normal: [Double]
    }

    static let name = "planes"
    static let shape = "{\"type\": \"planes\", \"planes\": [{\"point\": [x, y, z], \"normal\": [x, y, z]}]}"
    var planes: [PlaneMessage]

    var problem: String? {
        if planes.count > Room.planesKept { return "a room keeps at most \(Room.planesKept) planes" }
        for plane in planes {
            guard finite(plane.point, count: 3), finite(plane.normal, count: 3) else {
                return "a plane's point and normal are three finite numbers each"
            }
            guard plane.normal.map({ $0 * $0 }).reduce(0, +) > 1e-12 else { return "a plane's normal must not be zero" }
        }
        return nil
    }
}
