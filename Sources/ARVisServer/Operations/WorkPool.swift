import ARVisSupport
import Foundation
import HTTPTypes
import NIOConcurrencyHelpers

/// Runs work too heavy for the server's tasks — widget renders, scenes, password hashes — on
/// threads of its own, so the tasks that answer every other request (`/health` included) are never
/// held up by it.
///
/// At most ``Limits/running`` pieces of work run at once; the rest wait their turn. Admission is
/// bounded: a client (an address) may have ``Limits/perClient`` pieces running or waiting, and at
/// most ``Limits/waiting`` wait in all; beyond either, the request is refused with `429` and a
/// `Retry-After`, so a flood of expensive requests costs the server a refusal, not memory or time.
final class WorkPool: Sendable {
    /// How much work a pool takes.
    struct Limits: Sendable {
        /// Pieces of work running at once.
        var running: Int
        /// Pieces running or waiting per client.
        var perClient: Int
        /// Pieces waiting in all.
        var waiting: Int
    }

    private struct State {
        var running = 0
        var queue: [CheckedContinuation<Void, Never>] = []
        var head = 0
        var perClient: [String: Int] = [:]

        var waitingCount: Int { queue.count - head }
    }

    /// Threads for CPU-heavy work on this machine: all cores but one, which stays free for the
    /// server's tasks (at least one).
    static let backgroundThreads = max(1, ProcessInfo.processInfo.activeProcessorCount - 1)

    /// What the pool is for, in refusals (`renders`, `password checks`).
    let name: String
    let limits: Limits
    private let state = NIOLockedValueBox(State())

    init(_ name: String, limits: Limits) {
        self.name = name
        self.limits = limits
    }

    /// Runs `work` on a thread of its own (an ``OwnThread``) for `client` (an address; `nil` counts as one client)
    /// and returns its result.
    /// - Throws: ``APIError`` `429` when the client or the pool has too much waiting; what `work` throws.
    func run<T: Sendable>(client: String?, _ work: @escaping @Sendable () throws -> T) async throws -> T {
        let client = client ?? "-"
        try admit(client)
        defer { release(client) }
        await takeTurn()
        defer { endTurn() }
        return try await OwnThread.run(name) { Result(catching: work) }.get()
    }

    /// Counts the client's request in, or refuses it.
    private func admit(_ client: String) throws {
        let admitted = state.withLockedValue { state in
            guard state.perClient[client, default: 0] < limits.perClient, state.waitingCount < limits.waiting else {
                return false
            }
            state.perClient[client, default: 0] += 1
            return true
        }
        guard admitted else {
            var refusal = APIError(.tooManyRequests, .tooBusy, "too many \(name) are under way; try again in a second")
            refusal.extraHeaders[.retryAfter] = "1"
            throw refusal
        }
    }

    private func release(_ client: String) {
        state.withLockedValue { state in
            let count = state.perClient[client, default: 1] - 1
            state.perClient[client] = count > 0 ? count : nil
        }
    }

    /// Waits until fewer than ``Limits/running`` pieces run.
    private func takeTurn() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLockedValue { state in
                guard state.running < limits.running else {
                    state.queue.append(continuation)
                    return false
                }
                state.running += 1
                return true
            }
            if now { continuation.resume() }
        }
    }

    /// Hands the turn to the next waiting piece, or frees it.
    private func endTurn() {
        let next = state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
            guard state.head < state.queue.count else {
                state.running -= 1
                return nil
            }
            let next = state.queue[state.head]
            state.head += 1
            if state.head > 64, state.head * 2 > state.queue.count {
                state.queue.removeFirst(state.head)
                state.head = 0
            }
            return next
        }
        next?.resume()
    }
}
