import ARVisSupport

/// Runs `work` on a thread of its own (an ``OwnThread``) and returns what it returns, or throws
/// what it throws.
///
/// Swift Testing runs every test on the threads Swift's tasks share, one per core, and the
/// in-process servers of the server tests answer on those same threads. A test that computes or
/// waits on a child process for seconds there holds one of them all that time; two such tests at
/// once stop every other test, and CI saw live sockets time out after 20 seconds behind them. Work
/// of a second or more belongs here instead.
///
/// Keep `#expect` out of `work`: on another thread there is no current test for an issue to
/// belong to. Return what is to be checked and check it in the test.
public func offThePool<T: Sendable>(
    _ name: String = "test work", _ work: @escaping @Sendable () throws -> T
) async throws -> T {
    try await OwnThread.run(name) { Result(catching: work) }.get()
}
