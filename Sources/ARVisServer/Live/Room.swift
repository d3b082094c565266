import ARVisSpatial
import NIOCore
import NIOWebSocket
import Synchronization

/// A room of a project: a device session that a publisher (the device) streams its camera poses
/// to, and its members (remote experts, planters) watch, annotate and plant in.
///
/// The room keeps the poses of the last ``framesKept`` frames, so a tap made on a frame a viewer saw
/// a moment ago resolves against that frame's camera, and the planes the device has found.
///
/// Poses are the hot path (60 a second to every member): each is written straight to the members'
/// channels, one task on each event loop for all the members it serves, and only to a channel that
/// can take it at once — a member whose socket is backed up skips that pose and gets the next, so a
/// slow viewer never builds a backlog. Everything else goes through the member's ``Outbox``.
final class Room: Sendable {
    /// Frames whose poses are kept (five seconds at 60 Hz).
    static let framesKept = 300
    /// The most planes a device may report.
    static let planesKept = 64

    /// One connection in the room.
    struct Member: Sendable {
        /// Where its messages queue.
        var outbox: Outbox
        /// Its WebSocket channel, for poses; `nil` sends poses through the outbox.
        var channel: (any Channel)?
        /// Who it is to the other members: what WebRTC signalling is addressed to.
        var profile = Profile()
    }

    /// A member as the others see it: `{"id", "role", "name"}` in the room's messages.
    struct Profile: Sendable, Encodable, Equatable {
        /// Random, for this connection only: a member that reconnects is a new one.
        var id = Self.makeID()
        /// `publisher` (the device) or `member`.
        var role = "member"
        /// The account's username; `nil` for a device on a room link.
        var name: String?

        /// 16 hex digits from the system's random source.
        static func makeID() -> String {
            var generator = SystemRandomNumberGenerator()
            let hex = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }
    }

    private struct State: Sendable {
        var members: [Int: Member] = [:]
        var poses: [UInt32: PosePacket] = [:]
        var order: [UInt32] = []
        var latest: PosePacket?
        var latestBytes: ByteBuffer?
        var planes: [Plane] = []
    }

    private let state = Mutex(State())

    /// Whether nobody is in the room.
    var isEmpty: Bool { state.withLock { $0.members.isEmpty } }

    /// Adds a member; a newcomer gets the latest pose at once, and the others hear it joined.
    func add(_ member: Member, token: Int) {
        let (latest, others) = state.withLock { state in
            let others = Array(state.members.values)
            state.members[token] = member
            return (state.latestBytes, others)
        }
        if let latest { member.outbox.sendPose(latest) }
        let joined = Outbox.Message.text(ByteBuffer(string: LiveMessages.memberJoined(member.profile)))
        for other in others { other.outbox.send(joined) }
    }

    /// Removes a member, and tells the others it left; returns whether it was one.
    func remove(_ token: Int) -> Bool {
        let (removed, others) = state.withLock { state in
            (state.members.removeValue(forKey: token), Array(state.members.values))
        }
        guard let removed else { return false }
        let left = Outbox.Message.text(ByteBuffer(string: LiveMessages.memberLeft(id: removed.profile.id)))
        for other in others { other.outbox.send(left) }
        return true
    }

    /// What a member joining is told of itself and the room.
    struct Introduction: Sendable {
        /// The member itself.
        var member: Profile
        /// Everyone else in the room.
        var others: [Profile]
        /// The STUN and TURN servers its browser uses for video.
        var iceServers: [ICEServer]
        /// `RTCConfiguration.iceTransportPolicy`: "relay" to send only through TURN, else "all".
        var iceTransportPolicy: String
        /// The server's SFU, when it has one.
        var sfu: SFU?

        /// `{"id": "sfu", "directViewers"}`: the member id a publisher offers its camera to for
        /// Janus to forward, and how many members it still sends to directly before that.
        struct SFU: Sendable, Encodable {
            var id = VideoRelay.memberID
            var directViewers: Int
        }
    }

    /// Everyone in the room but the member with `token`, as they are introduced.
    func profiles(except token: Int) -> [Profile] {
        state.withLock { state in
            state.members.filter { $0.key != token }.map(\.value.profile).sorted { $0.id < $1.id }
        }
    }

    /// The outbox of the member with profile id `id`, unless it is the member with `token`.
    func outbox(ofMember id: String, except token: Int) -> Outbox? {
        state.withLock { state in
            state.members.first { $0.key != token && $0.value.profile.id == id }?.value.outbox
        }
    }

    /// Sends `message` to every member: straight to its channel when nothing of its is waiting,
    /// else through its outbox.
    func broadcast(_ message: Outbox.Message) {
        for member in state.withLock({ Array($0.members.values) }) {
            guard let channel = member.channel else {
                member.outbox.send(message)
                continue
            }
            member.outbox.sendDirectly(message, when: channel.isWritable) { text in
                channel.writeAndFlush(WebSocketFrame(fin: true, opcode: .text, data: text), promise: nil)
            }
        }
    }

    /// Keeps a publisher's pose and offers it to every other member (each gets the newest only).
    func publish(_ packet: PosePacket, bytes: ByteBuffer, from token: Int) {
        let viewers = state.withLock { state -> [Member] in
            if state.poses.updateValue(packet, forKey: packet.frameID) == nil { state.order.append(packet.frameID) }
            if state.order.count > Self.framesKept * 2 {
                for frame in state.order.prefix(state.order.count - Self.framesKept) { state.poses[frame] = nil }
                state.order.removeFirst(state.order.count - Self.framesKept)
            }
            state.latest = packet
            state.latestBytes = bytes
            return state.members.filter { $0.key != token }.map(\.value)
        }
        var byLoop: [ObjectIdentifier: (loop: any EventLoop, channels: [any Channel])] = [:]
        for viewer in viewers {
            guard let channel = viewer.channel else {
                viewer.outbox.sendPose(bytes)
                continue
            }
            guard !viewer.outbox.isClosing else { continue }
            byLoop[ObjectIdentifier(channel.eventLoop), default: (channel.eventLoop, [])].channels.append(channel)
        }
        let frame = WebSocketFrame(fin: true, opcode: .binary, data: bytes)
        for (loop, channels) in byLoop.values {
            loop.execute {
                for channel in channels where channel.isActive && channel.isWritable {
                    channel.writeAndFlush(frame, promise: nil)
                }
            }
        }
    }

    /// Replaces the planes the device has found (at most ``planesKept``).
    func setPlanes(_ planes: [Plane]) {
        state.withLock { $0.planes = Array(planes.prefix(Self.planesKept)) }
    }

    /// The pose of `frame` (the latest without one) and the room's planes; `nil` when the room holds
    /// no such pose.
    func scene(at frame: UInt32?) -> (pose: PosePacket, planes: [Plane])? {
        state.withLock { state in
            let pose = if let frame { state.poses[frame] } else { state.latest }
            return pose.map { ($0, state.planes) }
        }
    }
}
