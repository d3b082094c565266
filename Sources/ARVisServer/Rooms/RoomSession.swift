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
    let services: ServerServices
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
    /// TURN credentials handed out per account, shared by the hub's rooms.
    let turnGrants: RateBuckets
    /// How fast it may send.
    let rates = MemberRates()

    func receive(_ message: WebSocketMessage) async throws {
        switch message {
        case .binary(let buffer):
            // A pose past the member's rate is dropped: the next one replaces it anyway.
            if rates.poses.take() { try publish(buffer) }
        case .text(let text):
            guard rates.texts.take() else { throw MemberRates.tooManyTexts }
            try await requireAccess()
            try await handle(try read(text), text: text)
        }
    }

    /// Closes the connection with ``LiveClose/revoked(_:)`` when the member lost its access.
    private func requireAccess() async throws {
        do {
            try await services.recheck(grant)
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

    /// Reads a text frame, closing the connection when it breaks the protocol.
    private func read(_ text: String) throws -> RoomMessage {
        do { return try RoomMessage(text: text) } catch {
            throw error.code == .invalidMessage
                ? LiveClose.invalid(error.message) : LiveClose.unsupported(error.message)
        }
    }

    private func handle(_ message: RoomMessage, text: String) async throws {
        switch message {
        case .annotate(let message): try await annotate(message)
        case .deleteAnnotation(let message): try await delete(message)
        case .plant(let message): try await plant(message)
        case .plantGroup(let message): try await plantGroup(message)
        case .removeTree(let message): try await removeTree(message)
        case .removeTreeGroup(let message): try await removeTreeGroup(message)
        case .planes(let message): try setPlanes(message)
        case .signal(let message): await relay(message, text: text)
        case .mark(let message): try mark(message)
        case .projectFrame(let message): try shareProjectFrame(message)
        case .legacy(let signal): try await annotate(legacy: signal)
        case .turnCredentials: grantTURN()
        }
    }

    // MARK: Video

    /// TURN credentials for this member, asked for as it starts video and before the ones it holds
    /// expire: valid the server's ``ServerConfiguration/turnCredentialLifetime``, and only so many
    /// per account (``LiveHub/turnGrants``).
    private func grantTURN() {
        guard let granted = ICEServer.withTURN(for: profile.id, in: services.configuration) else {
            return refuse(nil, .turnUnavailable, "this server has no TURN server: video goes peer to peer")
        }
        guard turnGrants.take(grant.accountID ?? "member \(profile.id)") else {
            return refuse(nil, .tooManyCredentials, "TURN credentials are asked for too often; ask again in a minute")
        }
        outbox.send(.text(ByteBuffer(string: LiveMessages.turnCredentials(granted.servers, expires: granted.expires))))
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

    private func refuse(_ clientID: String?, _ code: APIError.Code, _ message: String, details: APIError.Details? = nil)
    {
        outbox.send(
            .text(
                ByteBuffer(
                    string: LiveMessages.refused(clientID: clientID, code: code, message: message, details: details))))
    }

    /// Runs a change, answering a refusal (a `4xx` of the API) to the sender.
    private func change(_ clientID: String?, _ work: () async throws -> Void) async throws {
        do { try await work() } catch let error as APIError where error.status.code < 500 {
            refuse(clientID, error.code, error.message, details: error.details)
        }
    }

    // MARK: WebRTC signalling

    /// Relays a signal to the member it names, in this room, or to the SFU; refuses one for nobody
    /// here or one whose offer, answer or candidate does not read. With an SFU, a publisher's
    /// `wait` to a member has the SFU send that member the video instead.
    /// On a shared store, a member's signal to the SFU that this instance's relay does not serve
    /// goes to the instance whose relay does (the one its publisher is on).
    private func relay(_ signal: SignalMessage, text: String) async {
        if let problem = signal.contentProblem { return refuse(signal.clientId, .invalidSignal, problem) }
        if signal.to == VideoRelay.memberID {
            guard let sfu else {
                return refuse(
                    signal.clientId, .unknownMember,
                    "this server forwards no video (arvis serve --sfu): address signals to the room's members")
            }
            if !joining.publishes, await !sfu.knows(profile.id), let exchange = room.exchange {
                return exchange.toSFU(text, from: profile, in: joining.key)
            }
            if let problem = await sfu.receive(signal, from: profile, recipient: .local(outbox), in: joining.key) {
                refuse(signal.clientId, .invalidSignal, problem)
            }
            return
        }
        guard let recipient = room.recipient(ofMember: signal.to, except: token) else {
            return refuse(
                signal.clientId, .unknownMember,
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
                    message.clientId, .invalidPose, "pose is the Base64 of a 62-byte ARVis pose packet with its CRC-32"
                )
            }
            guard pose.intrinsics.x > 0, pose.intrinsics.y > 0, pose.viewport.x > 0, pose.viewport.y > 0,
                [pose.position.x, pose.position.y, pose.position.z].allSatisfy({
                    Double(abs($0)) <= ARVisAPI.worldRadius
                })
            else {
                return refuse(
                    message.clientId, .invalidPose,
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
            return refuse(message.clientId, .unknownFrame, reason)
        }
        let planes = message.onFloor == true ? scene.planes + [.horizontal(y: 0)] : scene.planes
        try await place(
            tap: SIMD2(message.tap[0], message.tap[1]), on: (scene.pose, planes), depth: message.depth,
            text: message.text, clientID: message.clientId)
    }

    /// The OpenTok sample's signal: the tap is in view points, read against the latest frame's size.
    private func annotate(legacy signal: AnnotationSignal) async throws {
        try requireEditor("annotating", linkMay: true)
        guard let scene = room.scene(at: nil) else {
            return refuse(nil, .unknownFrame, "the room has no pose yet: the device has not published one")
        }
        let size = SIMD2(Double(scene.pose.viewport.x), Double(scene.pose.viewport.y))
        let tap = signal.tap / size
        guard size.x > 0, size.y > 0, (0...1).contains(tap.x), (0...1).contains(tap.y) else {
            return refuse(
                nil, .outsideFrame,
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
            return refuse(clientID, .notFinite, "the tap does not meet the world through that frame's camera")
        }
        guard max(abs(point.x), abs(point.y), abs(point.z)) <= ARVisAPI.worldRadius else {
            return refuse(
                clientID, .outOfRange, "the tap lands over 100 km away, beyond any room's world")
        }
        let annotation = Annotation(
            room: joining.key.room, x: point.x, y: point.y, z: point.z, text: text, frame: Int64(scene.pose.frameID),
            author: joining.access.account?.username, clientID: clientID)
        try await change(clientID) {
            try await services.requireQuota(.annotations(1), projectID: joining.key.projectID)
            _ = try await answering { () async throws(StoreError) in
                try await services.store.placeAnnotation(
                    projectID: joining.key.projectID, annotation, authorID: joining.access.account?.id)
            }
        }
    }

    private func delete(_ message: IdentifierMessage) async throws {
        try requireEditor("deleting an annotation")
        guard
            try await services.store.annotation(projectID: joining.key.projectID, id: message.id)?.room
                == joining.key.room,
            try await services.store.deleteAnnotation(projectID: joining.key.projectID, id: message.id)
        else {
            return refuse(message.clientId, .notFound, "no annotation \(message.id) in this room")
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

    /// Where the project's frame lies in the publisher's session: sent on to every member (on every
    /// instance), so each draws the project's bubbles where the device sees them; not stored (the
    /// device sends it again every few seconds while it shares).
    private func shareProjectFrame(_ message: ProjectFrameMessage) throws {
        guard joining.publishes else {
            throw LiveClose.notAllowed("only the room's publisher reports the project's frame")
        }
        room.broadcastEverywhere(RoomMessage.projectFrame(message).text)
    }

    // MARK: Planting

    private func plant(_ message: PlantMessage) async throws {
        try requireEditor("planting")
        let request = Components.Schemas.TreePlanting(
            species: message.species,
            position: .init(x: message.position.x, y: message.position.y, z: message.position.z),
            clientId: message.clientId)
        try await change(message.clientId) { _ = try await services.plant(request, in: joining.access) }
    }

    /// A tap group from the AR view; refused, not closed, when the member may not plant, so the
    /// phone can say why and stay in AR.
    private func plantGroup(_ message: PlantGroupMessage) async throws {
        let request = Components.Schemas.TreeGroupPlanting(
            species: message.species,
            position: .init(x: message.position.x, y: message.position.y, z: message.position.z),
            count: message.count, scale: message.scale, session: message.session, clientId: message.clientId)
        try await change(message.clientId) {
            try mayPlant()
            _ = try await services.plantGroup(request, in: joining.access)
        }
    }

    private func removeTreeGroup(_ message: IdentifierMessage) async throws {
        try await change(message.clientId) {
            try mayPlant()
            try await services.removeTreeGroup(message.id, in: joining.access)
        }
    }

    /// Refuses a member who may not plant (a viewer, a room link) with the API's `403`.
    private func mayPlant() throws(APIError) {
        guard joining.link == nil, let role = joining.access.role, role >= .editor else {
            throw APIError.forbidden("planting needs the editor role in this project")
        }
    }

    private func removeTree(_ message: IdentifierMessage) async throws {
        try requireEditor("removing a tree")
        guard try await services.store.removeTree(projectID: joining.key.projectID, id: message.id) else {
            return refuse(message.clientId, .notFound, "no tree \(message.id) in this project")
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
