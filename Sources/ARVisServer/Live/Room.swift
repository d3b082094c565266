import ARVisSpatial
import NIOCore
import Synchronization

/// A room of a project: a device session that a publisher (the device) streams its camera poses
/// to, and its members (remote experts, planters) watch, annotate and plant in.
///
/// The room keeps the poses of the last ``framesKept`` frames, so a tap made on a frame a viewer saw
/// a moment ago resolves against that frame's camera, and the planes the device has found.
final class Room: Sendable {
    /// Frames whose poses are kept (five seconds at 60 Hz).
    static let framesKept = 300
    /// The most planes a device may report.
    static let planesKept = 64

    private struct State: Sendable {
        var members: [Int: Outbox] = [:]
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
    func add(_ outbox: Outbox, token: Int) {
        let latest = state.withLock { state in
            state.members[token] = outbox
            return state.latestBytes
        }
        if let latest { outbox.sendPose(latest) }
    }

    /// Removes a member; returns whether it was one.
    func remove(_ token: Int) -> Bool {
        state.withLock { $0.members.removeValue(forKey: token) != nil }
    }

    /// Queues `message` for every member.
    func broadcast(_ message: Outbox.Message) {
        state.withLock { Array($0.members.values) }.forEach { $0.send(message) }
    }

    /// Keeps a publisher's pose and offers it to every other member (each gets the newest only).
    func publish(_ packet: PosePacket, bytes: ByteBuffer, from token: Int) {
        let viewers = state.withLock { state -> [Outbox] in
            if state.poses.updateValue(packet, forKey: packet.frameID) == nil { state.order.append(packet.frameID) }
            if state.order.count > Self.framesKept * 2 {
                for frame in state.order.prefix(state.order.count - Self.framesKept) { state.poses[frame] = nil }
                state.order.removeFirst(state.order.count - Self.framesKept)
            }
            state.latest = packet
            state.latestBytes = bytes
            return state.members.filter { $0.key != token }.map(\.value)
        }
        viewers.forEach { $0.sendPose(bytes) }
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
