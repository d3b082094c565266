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

    /// Adds a member; a newcomer gets the latest pose at once.
    func add(_ member: Member, token: Int) {
        let latest = state.withLock { state in
            state.members[token] = member
            return state.latestBytes
        }
        if let latest { member.outbox.sendPose(latest) }
    }

    /// Removes a member; returns whether it was one.
    func remove(_ token: Int) -> Bool {
        state.withLock { $0.members.removeValue(forKey: token) != nil }
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
