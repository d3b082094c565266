/// The glue every target shares: libFuzzer's entry point and driver, and the checks a harness makes.
/// A target's `main` only hands its test to ``run(_:_:_:)``.
public enum FuzzDriver {
    /// Runs libFuzzer's loop on `test`, with the command line of `argc` and `argv`.
    public static func run(
        _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>,
        _ test: @escaping ([UInt8]) -> Void
    ) -> CInt {
        currentTest = test
        var count = argc
        var arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
        return runFuzzerDriver(&count, &arguments) { fuzzOne($0, $1) }
    }

    /// The input's bytes.
    public static func bytes(_ start: UnsafeRawPointer?, _ count: Int) -> [UInt8] {
        guard let start, count > 0 else { return [] }
        return Array(UnsafeRawBufferPointer(start: start, count: count))
    }

    /// Stops the run with `message` when `condition` does not hold: libFuzzer keeps the input as a
    /// finding (a broken round trip or limit, not only a crash).
    public static func require(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fatalError("finding: " + message()) }
    }
}

/// The running target's test, set once by ``FuzzDriver/run(_:_:_:)`` before the loop starts (libFuzzer
/// calls the entry point on one thread).
nonisolated(unsafe) private var currentTest: ([UInt8]) -> Void = { _ in }

/// libFuzzer's entry point: tests one input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    currentTest(FuzzDriver.bytes(start, count))
    return 0
}

/// libFuzzer's driver, which parses the command line and runs the loop.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafeRawPointer?, Int) -> CInt
) -> CInt
