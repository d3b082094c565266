import Foundation

/// Work run on a thread started for it.
///
/// Swift's tasks share a few threads, one per core, and on Linux the global dispatch queue of the
/// same quality of service hands out those very threads: CPU-heavy or blocking work sent there (a
/// render, a password hash, a host name lookup) keeps every task waiting until it ends. A thread of
/// its own is scheduled by the system beside them instead, so tasks keep getting their turn.
/// Starting one is cheap beside the work worth moving.
public enum OwnThread {
    /// Runs `work` on a new thread named `name` (at most 15 bytes are shown on Linux) and returns
    /// its result once it ends; the calling task is suspended meanwhile.
    public static func run<T: Sendable>(_ name: String, _ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            start(name) { continuation.resume(returning: work()) }
        }
    }

    /// Starts `work` on a new thread named `name` and returns at once.
    public static func start(_ name: String, _ work: @escaping @Sendable () -> Void) {
        Thread {
            Thread.current.name = name  // set from the thread itself, or Linux keeps the starter's name
            work()
        }.start()
    }
}
