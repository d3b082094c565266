import ARVisSpatial
import NIOConcurrencyHelpers
import NIOCore
import NIOWebSocket

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
///
/// On a shared store the room also holds the members connected to other instances, which
/// ``RoomExchange`` tells it of: they are introduced like the others, signals reach them through the
/// exchange, and the poses go to them (and come from them) the same way.
final class Room: Sendable {
    /// Frames whose poses are kept (five seconds at 60 Hz).
    static let framesKept = 300
    /// The most planes a device may report.
    static let planesKept = PlanesMessage.maximumCount

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
    struct Profile: Sendable, Codable, Equatable {
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
        /// Members connected to other instances, by id: their profile and instance.
        var remote: [String: (profile: Profile, instance: String)] = [:]
        var poses: [UInt32: PosePacket] = [:]
        var order: [UInt32] = []
        var latest: PosePacket?
        var latestBytes: ByteBuffer?
        var planes: [Plane] = []
    }

    private let state = NIOLockedValueBox(State())
    /// Which room this is.
    let key: LiveHub.RoomKey
    /// How members on other instances are reached, on a shared store.
    let exchange: RoomExchange?

    init(key: LiveHub.RoomKey, exchange: RoomExchange? = nil) {
        self.key = key
        self.exchange = exchange
    }

    /// Whether nobody on this instance is in the room.
    var isEmpty: Bool { state.withLockedValue { $0.members.isEmpty } }

    /// How many members are in the room on this instance.
    var memberCount: Int { state.withLockedValue { $0.members.count } }

    /// Adds a member; a newcomer gets the latest pose at once, and the others (on every instance)
    /// hear it joined.
    func add(_ member: Member, token: Int) {
        let (latest, others) = state.withLockedValue { state in
            let others = Array(state.members.values)
            state.members[token] = member
            return (state.latestBytes, others)
        }
        if let latest { member.outbox.sendPose(latest) }
        let joined = Outbox.Message.text(ByteBuffer(string: LiveMessages.memberJoined(member.profile)))
        for other in others { other.outbox.send(joined) }
        exchange?.joined(member.profile, in: key)
    }

    /// Removes a member, and tells the others (on every instance) it left; returns whether it was one.
    func remove(_ token: Int) -> Bool {
        let (removed, others) = state.withLockedValue { state in
            (state.members.removeValue(forKey: token), Array(state.members.values))
        }
        guard let removed else { return false }
        tellLeft(removed.profile.id, others)
        exchange?.left(removed.profile.id, in: key)
        return true
    }

    private func tellLeft(_ id: String, _ members: [Member]) {
        let left = Outbox.Message.text(ByteBuffer(string: LiveMessages.memberLeft(id: id)))
        for member in members { member.outbox.send(left) }
    }

    // MARK: Members on other instances

    /// A member connected to `instance` is in the room; the members here hear it joined (once).
    func addRemote(_ profile: Profile, instance: String) {
        let others = state.withLockedValue { state -> [Member]? in
            guard state.remote[profile.id] == nil,
                !state.members.values.contains(where: { $0.profile.id == profile.id })
            else { return nil }
            state.remote[profile.id] = (profile, instance)
            return Array(state.members.values)
        }
        let joined = Outbox.Message.text(ByteBuffer(string: LiveMessages.memberJoined(profile)))
        for member in others ?? [] { member.outbox.send(joined) }
    }

    /// Members on other instances left: by id, or all of `instance`'s. Returns the ids that left.
    @discardableResult
    func removeRemote(id: String? = nil, instance: String? = nil) -> [String] {
        let (gone, members) = state.withLockedValue { state in
            let gone = state.remote.filter { $0.key == id || $0.value.instance == instance }.map(\.key)
            for id in gone { state.remote[id] = nil }
            return (gone, Array(state.members.values))
        }
        for id in gone { tellLeft(id, members) }
        return gone
    }

    /// The members on this instance, as they are introduced.
    var localProfiles: [Profile] { state.withLockedValue { $0.members.values.map(\.profile) } }

    /// Hands `text` to the member here whose id is `id`, if there is one.
    func deliver(_ text: String, to id: String) {
        state.withLockedValue { $0.members.values.first { $0.profile.id == id }?.outbox }?.send(
            .text(ByteBuffer(string: text)))
    }

    /// What a member joining is told of itself and the room.
    struct Introduction: Sendable {
        /// The member itself.
        var member: Profile
        /// Everyone else in the room.
        var others: [Profile]
        /// The STUN servers its browser uses for video (TURN credentials come when it asks).
        var iceServers: [ICEServer]
        /// Whether the server hands out TURN credentials (`turnCredentials`).
        var offersTURN: Bool
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

    /// Everyone in the room (on every instance) but the member with `token`, as they are introduced.
    func profiles(except token: Int) -> [Profile] {
        state.withLockedValue { state in
            (state.members.filter { $0.key != token }.map(\.value.profile) + state.remote.values.map(\.profile))
                .sorted { $0.id < $1.id }
        }
    }

    /// Where messages for the member with profile id `id` go, unless it is the member with `token`:
    /// its outbox here, or through the exchange to its instance.
    func recipient(ofMember id: String, except token: Int) -> Recipient? {
        let (local, remote) = state.withLockedValue { state in
            (
                state.members.first { $0.key != token && $0.value.profile.id == id }?.value.outbox,
                state.remote[id]?.instance
            )
        }
        if let local { return .local(local) }
        guard let remote, let exchange else { return nil }
        let key = key
        return Recipient { text in exchange.deliver(text, to: id, at: remote, in: key) }
    }

    /// Sends `message` to every member: straight to its channel when nothing of its is waiting,
    /// else through its outbox.
    func broadcast(_ message: Outbox.Message) {
        for member in state.withLockedValue({ Array($0.members.values) }) {
            guard let channel = member.channel else {
                member.outbox.send(message)
                continue
            }
            member.outbox.sendDirectly(message, when: channel.isWritable) { text in
                channel.writeAndFlush(WebSocketFrame(fin: true, opcode: .text, data: text), promise: nil)
            }
        }
    }

    /// Sends a JSON text message to every member, on every instance.
    func broadcastEverywhere(_ text: String) {
        broadcast(.text(ByteBuffer(string: text)))
        if state.withLockedValue({ !$0.remote.isEmpty }) { exchange?.toRoom(text, in: key) }
    }

    /// Keeps a publisher's pose and offers it to every other member (each gets the newest only),
    /// on every instance; `token` is `nil` for a publisher on another instance.
    func publish(_ packet: PosePacket, bytes: ByteBuffer, from token: Int?) {
        let (viewers, elsewhere) = state.withLockedValue { state -> ([Member], Bool) in
            if state.poses.updateValue(packet, forKey: packet.frameID) == nil { state.order.append(packet.frameID) }
            if state.order.count > Self.framesKept * 2 {
                for frame in state.order.prefix(state.order.count - Self.framesKept) { state.poses[frame] = nil }
                state.order.removeFirst(state.order.count - Self.framesKept)
            }
            state.latest = packet
            state.latestBytes = bytes
            return (state.members.filter { $0.key != token }.map(\.value), !state.remote.isEmpty)
        }
        if token != nil, elsewhere { exchange?.pose(bytes, in: key) }
        var byLoop: [ObjectIdentifier: (loop: any EventLoop, channels: [any Channel])] = [:]
        for viewer in viewers {
            // A member that just joined gets its welcome first: its poses wait in its outbox till then.
            guard let channel = viewer.channel, viewer.outbox.takesPosesDirectly else {
                viewer.outbox.sendPose(bytes)
                continue
            }
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

    /// Replaces the planes the device has found (at most ``planesKept``); `fromHere`: reported by a
    /// publisher on this instance, so the room's members elsewhere get them too.
    func setPlanes(_ planes: [Plane], fromHere: Bool = true) {
        let kept = Array(planes.prefix(Self.planesKept))
        let elsewhere = state.withLockedValue { state in
            state.planes = kept
            return !state.remote.isEmpty
        }
        if fromHere, elsewhere { exchange?.planes(kept, in: key) }
    }

    /// The pose of `frame` (the latest without one) and the room's planes; `nil` when the room holds
    /// no such pose.
    func scene(at frame: UInt32?) -> (pose: PosePacket, planes: [Plane])? {
        state.withLockedValue { state in
            let pose = if let frame { state.poses[frame] } else { state.latest }
            return pose.map { ($0, state.planes) }
        }
    }
}

/// Where messages for one member go: its outbox on this instance, or the instance it is connected to.
struct Recipient: Sendable {
    /// Sends a JSON text message to the member.
    let send: @Sendable (String) -> Void

    /// A member on this instance.
    static func local(_ outbox: Outbox) -> Recipient {
        Recipient { text in outbox.send(.text(ByteBuffer(string: text))) }
    }
}
