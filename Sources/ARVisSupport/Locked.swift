import Foundation

/// A value shared between threads behind a lock: the one lock of ARVis's own types (the server's
/// NIO-bound state uses NIO's `NIOLockedValueBox` alike).
///
/// The value is only ever touched inside ``withLock(_:)`` (or read or replaced whole through
/// ``value``), which is what makes sharing it safe.
///
/// ```swift
/// let count = Locked(0)
/// count.withLock { $0 += 1 }   // from any thread
/// count.value                  // 1
/// ```
public final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    /// A value to share.
    public init(_ value: Value) { stored = value }

    /// Runs `body` with the value, holding the lock; returns what `body` returns.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&stored)
    }

    /// The value, read or replaced whole under the lock.
    public var value: Value {
        get { withLock { $0 } }
        set { withLock { $0 = newValue } }
    }
}
