import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes to standard output and standard error, never trapping when they fail.
enum Console {
    /// Whether this task's output is discarded: in-process tests set it, so their log shows test
    /// results rather than thousands of lines of command output.
    @TaskLocal static var isSilenced = false

    /// Writes `text` and a newline to standard error (a failure to do so is ignored: there is
    /// nowhere left to report it).
    static func error(_ text: String) {
        guard !isSilenced else { return }
        _ = writeAll(Array((text + "\n").utf8), to: STDERR_FILENO)
    }

    /// Whether standard error is a terminal, where progress lines can be redrawn in place.
    static let showsProgress = isatty(STDERR_FILENO) == 1

    /// Shows `text` as the current progress on a terminal, replacing the previous progress line;
    /// nothing when standard error is a file or a pipe.
    static func progress(_ text: String) {
        guard showsProgress, !isSilenced else { return }
        _ = writeAll(Array("\r\u{1B}[K\(text)".utf8), to: STDERR_FILENO)
    }

    /// Clears the progress line.
    static func endProgress() {
        guard showsProgress, !isSilenced else { return }
        _ = writeAll(Array("\r\u{1B}[K".utf8), to: STDERR_FILENO)
    }

    /// Writes `text` to standard output without adding a newline.
    /// - Throws: exit code 2 after saying why, when standard output cannot take it (a full disk, a closed pipe).
    static func write(_ text: String) throws {
        try write(Data(text.utf8))
    }

    /// Writes `data` to standard output.
    static func write(_ data: Data) throws {
        guard !isSilenced else { return }
        if let code = writeAll([UInt8](data), to: STDOUT_FILENO) {
            throw CommandFailure.usage("cannot write to standard output: \(String(cString: strerror(code)))")
        }
    }

    /// Writes every byte to `descriptor`; the `errno` of a failure, or `nil`.
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { systemWrite(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return errno
            }
            written += count
        }
        return nil
    }
}

#if canImport(Glibc)
private let systemWrite = Glibc.write
#else
private let systemWrite = Darwin.write
#endif
