import ARVisSpatial
import ARVisSpec
import ARVisStore
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore

/// Rooms across server instances on one PostgreSQL store: who is in each room, WebRTC signals to
/// members on another instance, the device's poses and planes — broadcast through the store
/// (``Store/broadcast(_:)``, PostgreSQL's `NOTIFY`), the fan-out stored room events already take.
///
/// Each instance announces its members as they join and leave, asks the others who is in a room
/// when its first member joins it, and says it is alive every ``heartbeat``; the members of an
/// instance not heard from for ``silenceLimit`` (it died) leave their rooms. Messages go out one at
/// a time, in order; one too long for a `NOTIFY` goes in parts.
final class RoomExchange: Sendable {
    /// How often an instance says it is alive.
    static let heartbeat = Duration.seconds(5)
    /// How long an instance may be silent before its members are taken for gone.
    static let silenceLimit = Duration.seconds(20)
    /// The longest part of a message split for `NOTIFY`, in UTF-8 bytes.
    static let partBytes = 6_000

    /// One broadcast: `t` says what it is; the rest depends on it.
    private struct Message: Codable {
        /// The sending instance.
        var i: String
        /// `join`, `leave`, `who`, `deliver`, `room`, `pose`, `planes`, `sfu`, `alive` or `part`.
        var t: String
        /// The room: its project's id and its name.
        var p: String?
        var r: String?
        /// `join`, `sfu`: the member.
        var m: Room.Profile?
        /// `leave`: the member's id; `deliver`: the recipient's; `part`: the whole message's.
        var id: String?
        /// `deliver`: the instance the recipient is on.
        var to: String?
        /// `deliver`: the text for the member; `room`: for every member; `pose`: Base64 of the packet; `planes`: their JSON;
        /// `sfu`: the signal's JSON; `part`: a piece of the whole message. Planes go as `[nx, ny, nz,
        /// offset]` each.
        var x: String?
        /// `part`: which piece, and how many.
        var k: Int?
        var n: Int?
    }

    /// This instance's id in the messages.
    let instance = Room.Profile.makeID()
    private let store: Store
    private let logger: Logger
    private let sfu: VideoRelay?
    private let outgoing: AsyncStream<String>.Continuation
    private let queue: AsyncStream<String>
    /// Instances heard from, and when.
    private let heard = NIOLockedValueBox<[String: ContinuousClock.Instant]>([:])
    /// Messages arriving in parts, by id: the pieces so far, and when the first came.
    private let pieces = NIOLockedValueBox<[String: (parts: [Int: String], started: ContinuousClock.Instant)]>([:])

    init(store: Store, logger: Logger, sfu: VideoRelay?) {
        self.store = store
        self.logger = logger
        self.sfu = sfu
        (queue, outgoing) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(10_000))
    }

    // MARK: What this instance says

    /// `profile` joined `key` here.
    func joined(_ profile: Room.Profile, in key: LiveHub.RoomKey) {
        send(Message(i: instance, t: "join", p: key.projectID, r: key.room, m: profile))
    }

    /// The member `id` left `key` here.
    func left(_ id: String, in key: LiveHub.RoomKey) {
        send(Message(i: instance, t: "leave", p: key.projectID, r: key.room, id: id))
    }

    /// Asks the other instances who is in `key` (this instance just opened it).
    func ask(_ key: LiveHub.RoomKey) {
        send(Message(i: instance, t: "who", p: key.projectID, r: key.room))
    }

    /// Hands `text` to member `id`, connected to `remote`.
    func deliver(_ text: String, to id: String, at remote: String, in key: LiveHub.RoomKey) {
        send(Message(i: instance, t: "deliver", p: key.projectID, r: key.room, id: id, to: remote, x: text))
    }

    /// A pose packet a publisher here sent to `key`.
    func pose(_ bytes: ByteBuffer, in key: LiveHub.RoomKey) {
        let text = Data(bytes.readableBytesView).base64EncodedString()
        send(Message(i: instance, t: "pose", p: key.projectID, r: key.room, x: text))
    }

    /// The planes a publisher here reported in `key`.
    func planes(_ planes: [Plane], in key: LiveHub.RoomKey) {
        let numbers = planes.map { [$0.normal.x, $0.normal.y, $0.normal.z, $0.offset] }
        guard let json = try? JSONEncoder().encode(numbers) else { return }
        send(Message(i: instance, t: "planes", p: key.projectID, r: key.room, x: String(decoding: json, as: UTF8.self)))
    }

    /// A message for every member of `key` (a mark in the picture).
    func toRoom(_ text: String, in key: LiveHub.RoomKey) {
        send(Message(i: instance, t: "room", p: key.projectID, r: key.room, x: text))
    }

    /// A signal `member` here addressed to the SFU, for the instance whose relay serves it.
    func toSFU(_ signal: String, from member: Room.Profile, in key: LiveHub.RoomKey) {
        send(Message(i: instance, t: "sfu", p: key.projectID, r: key.room, m: member, x: signal))
    }

    private func send(_ message: Message) {
        guard let data = try? JSONEncoder().encode(message) else { return }
        let text = String(decoding: data, as: UTF8.self)
        guard text.utf8.count > Store.maximumBroadcastBytes else {
            outgoing.yield(text)
            return
        }
        let parts = Self.split(text, bytes: Self.partBytes)
        let id = Room.Profile.makeID()
        for (index, part) in parts.enumerated() {
            let piece = Message(i: instance, t: "part", id: id, x: part, k: index, n: parts.count)
            if let data = try? JSONEncoder().encode(piece) { outgoing.yield(String(decoding: data, as: UTF8.self)) }
        }
    }

    /// `text` in pieces of at most `bytes` UTF-8 bytes, cut between characters.
    static func split(_ text: String, bytes: Int) -> [String] {
        var parts: [String] = []
        var current = ""
        var size = 0
        for character in text {
            let count = character.utf8.count
            if size + count > bytes {
                parts.append(current)
                (current, size) = ("", 0)
            }
            current.append(character)
            size += count
        }
        if !current.isEmpty { parts.append(current) }
        return parts
    }

    // MARK: Running

    /// Sends this instance's messages and acts on the others' until cancelled. `rooms` finds a room
    /// open here; `allRooms` lists them.
    func run(rooms: @escaping @Sendable (LiveHub.RoomKey) -> Room?, allRooms: @escaping @Sendable () -> [Room]) async {
        let incoming = store.broadcasts()
        await withDiscardingTaskGroup { group in
            group.addTask {
                for await text in self.queue {
                    do { try await self.store.broadcast(text) } catch {
                        self.logger.warning("rooms: a message to the other instances was lost: \(error)")
                    }
                }
            }
            group.addTask {
                while !Task.isCancelled {
                    self.send(Message(i: self.instance, t: "alive"))
                    self.forgetSilent(allRooms())
                    try? await Task.sleep(for: Self.heartbeat)
                }
            }
            for await text in incoming { await self.receive(text, rooms: rooms) }
            outgoing.finish()
            group.cancelAll()
        }
    }

    private func receive(_ text: String, rooms: @Sendable (LiveHub.RoomKey) -> Room?) async {
        guard let message = try? JSONDecoder().decode(Message.self, from: Data(text.utf8)), message.i != instance
        else { return }
        heard.withLockedValue { $0[message.i] = .now }
        if message.t == "part" {
            if let whole = assemble(message) { await receive(whole, rooms: rooms) }
            return
        }
        guard let projectID = message.p, let name = message.r,
            let room = rooms(LiveHub.RoomKey(projectID: projectID, room: name))
        else { return }
        switch message.t {
        case "join": if let member = message.m { room.addRemote(member, instance: message.i) }
        case "leave":
            if let id = message.id, !room.removeRemote(id: id).isEmpty { await sfu?.left(id) }
        case "who": for profile in room.localProfiles { joined(profile, in: room.key) }
        case "deliver":
            if message.to == instance, let id = message.id, let text = message.x { room.deliver(text, to: id) }
        case "room": if let text = message.x { room.broadcast(.text(ByteBuffer(string: text))) }
        case "pose":
            guard let text = message.x, let data = Data(base64Encoded: text),
                let packet = try? data.withUnsafeBytes({ try PosePacket(decoding: $0) })
            else { return }
            room.publish(packet, bytes: ByteBuffer(bytes: data), from: nil)
        case "planes":
            guard let text = message.x, let numbers = try? JSONDecoder().decode([[Double]].self, from: Data(text.utf8))
            else { return }
            room.setPlanes(
                numbers.filter { $0.count == 4 }.map {
                    let normal = Vec3($0[0], $0[1], $0[2])
                    return Plane(point: normal * $0[3], normal: normal)
                }, fromHere: false)
        case "sfu":
            guard let sfu, let member = message.m, let text = message.x, await sfu.knows(member.id),
                let signal = try? JSONDecoder().decode(SignalMessage.self, from: Data(text.utf8))
            else { return }
            let from = message.i
            let key = room.key
            let recipient = Recipient { text in self.deliver(text, to: member.id, at: from, in: key) }
            _ = await sfu.receive(signal, from: member, recipient: recipient, in: key)
        default: return
        }
    }

    /// The whole message once its last part came; parts of messages older than the silence limit
    /// are dropped.
    private func assemble(_ part: Message) -> String? {
        guard let id = part.id, let index = part.k, let count = part.n, let text = part.x, (1...64).contains(count)
        else { return nil }
        return pieces.withLockedValue { pieces in
            pieces = pieces.filter { ContinuousClock.now - $0.value.started < Self.silenceLimit }
            var entry = pieces[id] ?? ([:], .now)
            entry.parts[index] = text
            guard entry.parts.count == count else {
                pieces[id] = entry
                return nil
            }
            pieces[id] = nil
            return (0..<count).compactMap { entry.parts[$0] }.joined()
        }
    }

    /// The members of instances not heard from within the silence limit leave every room here.
    private func forgetSilent(_ rooms: [Room]) {
        let silent = heard.withLockedValue { heard in
            let silent = heard.filter { ContinuousClock.now - $0.value > Self.silenceLimit }.map(\.key)
            for instance in silent { heard[instance] = nil }
            return silent
        }
        for instance in silent {
            logger.warning("rooms: instance \(instance) went silent; its members leave their rooms")
            for room in rooms {
                for id in room.removeRemote(instance: instance) { Task { await sfu?.left(id) } }
            }
        }
    }
}
