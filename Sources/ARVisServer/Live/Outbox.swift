import NIOConcurrencyHelpers
import NIOCore

/// What one live client is sent, queued until its connection takes it.
///
/// Bounded, and never a backlog of poses: a pose replaces the one not yet sent (a slow viewer gets
/// the newest). Everything else — spec versions, rows, annotations, trees, signals, marks, presence
/// — is kept in order; a client so far behind that ``capacity`` messages or ``byteCapacity`` bytes wait is closed with
/// ``LiveClose/tooFarBehind`` and resumes from the last sequence number it holds.
///
/// A message's bytes are made once and shared by every outbox it is queued in (and by the socket
/// writes), so a large spec version sent to many clients is held in memory once, not per client.
///
/// Messages carry the cursor they advance (a spec version, an event sequence, a row sequence), and
/// one that does not advance it is skipped, so a catch-up after a reconnect and a live event that
/// raced it are never both sent.
final class Outbox: Sendable {
    /// One queued message.
    enum Message: Sendable {
        /// A message at `cursor` of `stream`: sent only when the cursor moves forward.
        case ordered(stream: String, cursor: Int64, text: ByteBuffer)
        /// A message sent as it is.
        case text(ByteBuffer)
        /// A message that starts `stream` again (a spec deleted and created anew counts from 1).
        case restart(stream: String, text: ByteBuffer)
        /// Nothing to send: the client holds `stream` up to `cursor` already (a resume with nothing missed).
        case holding(stream: String, cursor: Int64)
        /// Close the connection.
        case close(LiveClose)

        /// The bytes it queues.
        var size: Int {
            switch self {
            case .ordered(_, _, let text), .text(let text), .restart(_, let text): text.readableBytes
            case .holding, .close: 0
            }
        }
    }

    /// What the connection writes next.
    enum Frame: Sendable, Equatable {
        case text(ByteBuffer)
        case binary(ByteBuffer)
        case close(LiveClose)
    }

    private struct State: Sendable {
        var queue: [Message] = []
        var head = 0
        /// The bytes of the messages from `head` on.
        var queuedBytes = 0
        var pose: ByteBuffer?
        var cursors: [String: Int64] = [:]
        var waiter: CheckedContinuation<Frame?, Never>?
        var finished = false
        /// Frames taken by the writer and not yet written.
        var writing = 0
        /// Whether a message may bypass the queue (see ``sendDirectly(_:when:write:)``).
        var direct = false
        /// Whether a frame was written since bypassing was allowed: the catch-up's first (a room's
        /// `welcome`) is on the connection, so what is written straight to it comes after.
        var caughtUp = false
    }

    /// The most messages that may wait.
    let capacity: Int
    /// The most bytes that may wait (a client that does not read is closed past it).
    let byteCapacity: Int
    private let state = NIOLockedValueBox(State())

    init(capacity: Int = 1_024, byteCapacity: Int = 16 << 20) {
        self.capacity = capacity
        self.byteCapacity = byteCapacity
    }

    /// Queues `message`; past ``capacity`` messages or ``byteCapacity`` bytes (whatever the kind:
    /// versions, signals, marks, presence, refusals) the client is closed as too far behind instead.
    func send(_ message: Message) {
        let waiter: (CheckedContinuation<Frame?, Never>, Frame?)? = state.withLockedValue { state in
            guard !state.finished else { return nil }
            let full = state.queue.count - state.head >= capacity || state.queuedBytes + message.size > byteCapacity
            if full {
                Self.replaceQueue(&state, with: .close(.tooFarBehind(state.cursors)))
            } else {
                state.queue.append(message)
                state.queuedBytes += message.size
            }
            return Self.handOver(&state)
        }
        if let (continuation, frame) = waiter { continuation.resume(returning: frame) }
    }

    /// Queues `messages` ahead of everything waiting (a catch-up that must precede live messages
    /// queued while it was read; those it covers are then skipped by their cursors). The same bounds
    /// hold as for ``send(_:)``, but for one message larger than ``byteCapacity`` alone (a spec's
    /// latest version must reach a client that has nothing).
    func sendFirst(_ messages: [Message]) {
        let waiter: (CheckedContinuation<Frame?, Never>, Frame?)? = state.withLockedValue { state in
            guard !state.finished else { return nil }
            let bytes = messages.reduce(0) { $0 + $1.size }
            let count = state.queue.count - state.head + messages.count
            let byteBound = max(byteCapacity, messages.map(\.size).max() ?? 0)
            if count > capacity || state.queuedBytes + bytes > byteBound {
                Self.replaceQueue(&state, with: .close(.tooFarBehind(state.cursors)))
            } else {
                state.queue.replaceSubrange(0..<state.head, with: messages)
                state.head = 0
                state.queuedBytes += bytes
            }
            return Self.handOver(&state)
        }
        if let (continuation, frame) = waiter { continuation.resume(returning: frame) }
    }

    /// Closes the connection now: what waits is dropped (the client resumes from its cursors).
    func close(_ reason: LiveClose) {
        let waiter: (CheckedContinuation<Frame?, Never>, Frame?)? = state.withLockedValue { state in
            guard !state.finished else { return nil }
            Self.replaceQueue(&state, with: .close(reason))
            return Self.handOver(&state)
        }
        if let (continuation, frame) = waiter { continuation.resume(returning: frame) }
    }

    /// Whether the connection is closing (or closed): nothing more is written to it.
    var isClosing: Bool {
        state.withLockedValue { state in Self.isClosing(state) }
    }

    private static func isClosing(_ state: State) -> Bool {
        if state.finished { return true }
        if state.head < state.queue.count, case .close = state.queue[state.head] { return true }
        return false
    }

    /// The cursor of each stream, as far as it was sent.
    var cursors: [String: Int64] { state.withLockedValue { $0.cursors } }

    /// Lets ``sendDirectly(_:when:write:)`` bypass the queue from now on (a room member, once its catch-up
    /// is queued).
    func allowDirect() {
        state.withLockedValue { $0.direct = true }
    }

    /// Hands `message` to `write` at once — skipping the writer task — when the connection is `ready`
    /// and nothing of this outbox is queued or being written, so order is kept; else queues it. `write` runs under the
    /// outbox's lock and must only hand the text to the connection (a channel write, which its event
    /// loop performs in call order).
    func sendDirectly(_ message: Message, when ready: Bool, write: (ByteBuffer) -> Void) {
        let queued: Bool = state.withLockedValue { state in
            guard ready, state.direct, !state.finished, state.head == state.queue.count, state.writing == 0 else {
                return true
            }
            switch message {
            case .ordered(let stream, let cursor, let text):
                guard cursor > state.cursors[stream, default: Int64.min] else { return false }
                state.cursors[stream] = cursor
                write(text)
            case .text(let text): write(text)
            default: return true
            }
            return false
        }
        if queued { send(message) }
    }

    /// Tells the outbox the frame the writer took last is written.
    func written() {
        state.withLockedValue { state in
            state.writing = max(0, state.writing - 1)
            if state.direct { state.caughtUp = true }
        }
    }

    /// Whether poses may be written straight to the connection: its catch-up was written first and
    /// it is not closing. Until then a pose waits here, behind the catch-up (``sendPose(_:)``).
    var takesPosesDirectly: Bool {
        state.withLockedValue { state in state.caughtUp && !Self.isClosing(state) }
    }

    /// Offers the newest pose; one not yet sent is dropped.
    func sendPose(_ packet: ByteBuffer) {
        let waiter: (CheckedContinuation<Frame?, Never>, Frame?)? = state.withLockedValue { state in
            guard !state.finished else { return nil }
            state.pose = packet
            return Self.handOver(&state)
        }
        if let (continuation, frame) = waiter { continuation.resume(returning: frame) }
    }

    /// Ends the queue: ``next()`` returns `nil` from now on.
    func finish() {
        let waiter = state.withLockedValue { state -> CheckedContinuation<Frame?, Never>? in
            state.finished = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: nil)
    }

    /// The next frame to write, waiting for one; `nil` once finished (or the task is cancelled).
    func next() async -> Frame? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready: Frame?? = state.withLockedValue { state in
                    if let frame = Self.take(&state) {
                        state.writing += 1
                        return .some(frame)
                    }
                    if state.finished || Task.isCancelled { return .some(nil) }
                    state.waiter = continuation
                    return .none
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            finish()
        }
    }

    /// Drops everything waiting for `message` (a close).
    private static func replaceQueue(_ state: inout State, with message: Message) {
        state.queue = [message]
        state.head = 0
        state.queuedBytes = 0
        state.pose = nil
    }

    /// The waiting reader and the frame for it, when both are there.
    private static func handOver(_ state: inout State) -> (CheckedContinuation<Frame?, Never>, Frame?)? {
        guard let waiter = state.waiter, let frame = take(&state) else { return nil }
        state.waiter = nil
        state.writing += 1
        return (waiter, frame)
    }

    /// Takes the next frame to write: queued messages first (skipping those that do not advance their
    /// cursor), then the newest pose.
    private static func take(_ state: inout State) -> Frame? {
        while state.head < state.queue.count {
            let message = state.queue[state.head]
            state.head += 1
            state.queuedBytes -= message.size
            if state.head > 64, state.head * 2 > state.queue.count {
                state.queue.removeFirst(state.head)
                state.head = 0
            }
            switch message {
            case .ordered(let stream, let cursor, let text):
                guard cursor > state.cursors[stream, default: Int64.min] else { continue }
                state.cursors[stream] = cursor
                return .text(text)
            case .text(let text): return .text(text)
            case .restart(let stream, let text):
                state.cursors[stream] = nil
                return .text(text)
            case .holding(let stream, let cursor):
                state.cursors[stream] = max(cursor, state.cursors[stream, default: Int64.min])
            case .close(let reason):
                replaceQueue(&state, with: message)
                state.queue = []
                state.finished = true
                return .close(reason)
            }
        }
        if let pose = state.pose {
            state.pose = nil
            return .binary(pose)
        }
        return nil
    }
}

/// Why the server closes a live connection: a WebSocket close code and a reason a person can read.
struct LiveClose: Sendable, Equatable, Error {
    /// The close code (RFC 6455: 1003 unsupported data, 1007 invalid data, 1008 policy; 4000–4999 ARVis's own).
    var code: UInt16
    /// Why, in at most 123 bytes (the protocol's limit).
    var reason: String

    init(_ code: UInt16, _ reason: String) {
        self.code = code
        var reason = reason
        while reason.utf8.count > 123 { reason.removeLast() }
        self.reason = reason
    }

    /// A frame of the wrong kind (binary where text is expected, or text that is no message).
    static func unsupported(_ reason: String) -> LiveClose { LiveClose(1003, reason) }
    /// A message that does not read: bad JSON, wrong field types, non-finite numbers, a corrupt packet.
    static func invalid(_ reason: String) -> LiveClose { LiveClose(1007, reason) }
    /// A message the client's role may not send.
    static func notAllowed(_ reason: String) -> LiveClose { LiveClose(1008, reason) }
    /// The client's access ended (removed, signed out, the project made private or trashed): it may
    /// connect again with what it has now.
    static func revoked(_ why: String) -> LiveClose { LiveClose(4003, "access revoked: " + why) }
    /// The client fell so far behind that its queue filled: reconnect and resume from the cursors.
    static func tooFarBehind(_ cursors: [String: Int64]) -> LiveClose {
        let held = cursors.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "&")
        return LiveClose(4000, "too far behind; reconnect to resume" + (held.isEmpty ? "" : " (\(held))"))
    }
}
