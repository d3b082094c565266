import ServiceLifecycle

#if canImport(Glibc)
import Glibc
#endif

/// Gives memory the server freed back to the system, so a burst (large spec versions queued for
/// many clients, a big upload) does not leave the process at its peak size for good.
///
/// glibc keeps freed memory in its heaps; here large blocks are mapped on their own (so they go
/// back when freed) and the heaps are trimmed every few seconds. Elsewhere this does nothing.
struct MemoryReturn: Service {
    /// How often the heaps are trimmed.
    var interval: Duration

    init(interval: Duration = .seconds(5)) {
        self.interval = interval
        // Blocks of 256 KB and more get their own mappings; a fixed threshold also stops glibc from
        // raising it after the first large free (which would keep later large blocks in the heap).
        _ = Self.glibc("mallopt", as: (@convention(c) (Int32, Int32) -> Int32).self)?(Self.mmapThreshold, 256 * 1_024)
    }

    /// glibc's `M_MMAP_THRESHOLD` parameter of `mallopt`.
    private static let mmapThreshold: Int32 = -3

    func run() async {
        let trim = Self.glibc("malloc_trim", as: (@convention(c) (Int) -> Int32).self)
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                _ = trim?(0)
            }
        }
    }

    /// A glibc function by name (`malloc.h` is not in Swift's Glibc module), or `nil` elsewhere.
    private static func glibc<F>(_ name: String, as type: F.Type) -> F? {
        #if canImport(Glibc)
        guard let symbol = dlsym(nil, name) else { return nil }
        return unsafeBitCast(symbol, to: type)
        #else
        return nil
        #endif
    }
}
