import ARVisSpec
public import ARVisSupport
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads files and standard input without ever holding more than a limit: the bytes are read in
/// chunks and reading stops as soon as they pass it, so `/dev/zero`, an endless pipe or a file
/// that grows cannot exhaust memory.
///
/// ```swift
/// let bytes = try BoundedRead.file("museum.json", maximumBytes: 64 << 20)
/// ```
public enum BoundedRead {
    /// The bytes of the file at `path`.
    /// - Parameters:
    ///   - maximumBytes: the most accepted; more is a `tooLarge` error that names the limit.
    ///   - regularOnly: refuse devices, pipes and sockets (resources must be plain files; a command's
    ///     input may be a pipe such as `/dev/stdin`).
    /// - Throws: ``PipelineError`` with `notFound`, `unreadable` (a folder, no permission) or `tooLarge`.
    public static func file(_ path: String, maximumBytes: Int, regularOnly: Bool = false) throws(PipelineError)
        -> [UInt8]
    {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | (regularOnly ? O_NONBLOCK | O_NOFOLLOW : 0))
        guard descriptor >= 0 else {
            let code = errno
            throw PipelineError(
                code == ENOENT ? .notFound : .unreadable,
                code == ENOENT ? "no such file" : String(cString: strerror(code)), location: path)
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw PipelineError(.unreadable, String(cString: strerror(errno)), location: path)
        }
        let kind = status.st_mode & S_IFMT
        if kind == S_IFDIR { throw PipelineError(.unreadable, "it is a folder, not a file", location: path) }
        if regularOnly, kind != S_IFREG { throw PipelineError(.unreadable, "it is not a regular file", location: path) }
        if kind == S_IFREG, Int(status.st_size) > maximumBytes {
            throw tooLarge(Int(status.st_size), maximumBytes, path)
        }
        return try read(descriptor, maximumBytes: maximumBytes, subject: path)
    }

    /// Everything on standard input, up to `maximumBytes`.
    public static func standardInput(maximumBytes: Int) throws(PipelineError) -> [UInt8] {
        try read(STDIN_FILENO, maximumBytes: maximumBytes, subject: "standard input")
    }

    private static func read(_ descriptor: Int32, maximumBytes: Int, subject: String) throws(PipelineError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN {
                    usleep(1_000)
                    continue
                }
                throw PipelineError(.unreadable, String(cString: strerror(errno)), location: subject)
            }
            if count == 0 { return bytes }
            guard bytes.count + count <= maximumBytes else { throw tooLarge(nil, maximumBytes, subject) }
            bytes += chunk[..<count]
        }
    }

    private static func tooLarge(_ size: Int?, _ maximum: Int, _ subject: String) -> PipelineError {
        let found = size.map { "\(ByteCount($0)) is" } ?? "it is"
        return PipelineError(.tooLarge, "\(found) over the \(ByteCount(maximum)) limit", location: subject)
    }
}

/// A byte count for messages: `853 bytes`, `20 MB`, `1.5 GB`.
public struct ByteCount: CustomStringConvertible, Sendable {
    /// The count.
    public var bytes: Int

    /// Creates a count.
    public init(_ bytes: Int) { self.bytes = bytes }

    /// Bytes below 1 000, else kB, MB or GB (powers of 1 000), one decimal below 100 unless whole.
    public var description: String {
        func scaled(_ unit: Double, _ name: String) -> String {
            let value = Double(bytes) / unit
            return value.rounded() == value || value >= 100
                ? "\(Int(saturating: value.rounded())) \(name)" : String(format: "%.1f \(name)", value)
        }
        if bytes < 1_000 { return "\(bytes) byte\(bytes == 1 ? "" : "s")" }
        if bytes < 1_000_000 { return scaled(1_000, "kB") }
        if bytes < 1_000_000_000 { return scaled(1_000_000, "MB") }
        return scaled(1_000_000_000, "GB")
    }
}

#if canImport(Glibc)
private let systemRead = Glibc.read
#elseif canImport(Musl)
private let systemRead = Musl.read
#else
private let systemRead = Darwin.read
#endif
