/// The glue every target shares: libFuzzer's driver, and the checks a harness makes.
public enum FuzzDriver {
    /// Runs libFuzzer's loop on `test`, with the command line of `argc` and `argv`.
    public static func run(
        _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>,
        _ test: @convention(c) (UnsafeRawPointer?, Int) -> CInt
    ) -> CInt {
        var count = argc
        var arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
        return runFuzzerDriver(&count, &arguments, test)
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

/// libFuzzer's driver, which parses the command line and runs the loop.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafeRawPointer?, Int) -> CInt
) -> CInt
