import Foundation
public import Logging
import NIOConcurrencyHelpers

/// The server's log lines on standard error, in the format of swift-log's `StreamLogHandler`
/// (`2026-11-27T13:15:16+0000 info arvis.serve: hb.request.id=… [ARVisServer] GET /s/… 200`), at a
/// fraction of its cost per line, which matters at one line per request:
/// - the timestamp is formatted once a second, not per line (glibc's `localtime` also reads the
///   status of `/etc/localtime` on every call);
/// - metadata is formatted when a line is written, not each time a request's logger gains its id;
/// - lines logged while another thread is writing are gathered into that thread's next write: one
///   system call for many lines under load, and none held back when the server is quiet.
///
/// ```swift
/// ServerLogHandler.bootstrap()  // before the first logger is made
/// ```
public struct ServerLogHandler: LogHandler {
    /// Makes this handler the process's, for every logger made after (swift-log allows one call
    /// per process: call it once, first thing).
    public static func bootstrap() {
        LoggingSystem.bootstrap(ServerLogHandler.init(label:))
    }

    /// The metadata every line of this logger carries.
    public var metadata: Logger.Metadata = [:]
    /// The least severe level written.
    public var logLevel: Logger.Level = .info
    private let label: String
    private let output: LineWriter

    /// A handler for `label` writing to standard error.
    public init(label: String) {
        self.init(label: label, output: .standardError)
    }

    init(label: String, output: LineWriter) {
        self.label = label
        self.output = output
    }

    /// One metadata value.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Writes `event` as one line.
    public func log(event: LogEvent) {
        var merged = metadata
        if let explicit = event.metadata { merged.merge(explicit) { $1 } }
        if let error = event.error {
            merged["error.message"] = "\(error)"
            merged["error.type"] = "\(String(reflecting: type(of: error)))"
        }
        var line = LogTimestamp.current()
        line.reserveCapacity(256)
        line += " \(event.level)"
        if !label.isEmpty { line += " " + label }
        line += ":"
        if merged.count > 1 {
            for (key, value) in merged.sorted(by: { $0.key < $1.key }) { line += " \(key)=\(value)" }
        } else if let (key, value) = merged.first {
            line += " \(key)=\(value)"
        }
        line += " [\(event.source)] \(event.message)\n"
        output.write(line)
    }
}

/// The local time of the current second as `2026-11-27T13:15:16+0000`, formatted once a second.
enum LogTimestamp {
    private static let cache = NIOLockedValueBox<(second: Int, text: String)>((-1, ""))

    static func current() -> String {
        let now = time(nil)
        return cache.withLockedValue { cache in
            if cache.second != now { cache = (now, format(now)) }
            return cache.text
        }
    }

    private static func format(_ seconds: time_t) -> String {
        var seconds = seconds
        var parts = tm()
        guard localtime_r(&seconds, &parts) != nil else { return "<unknown>" }
        var buffer = [CChar](repeating: 0, count: 64)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S%z", &parts)
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// Whole lines to a file descriptor, in the order they are given. A line given while another
/// thread is writing waits in memory and goes out with that thread's next write. At most
/// ``pendingLimit`` bytes wait: past it (the descriptor is not being read), lines are dropped and
/// counted, and a line saying how many goes out with the next write.
final class LineWriter: Sendable {
    /// Standard error.
    static let standardError = LineWriter(descriptor: 2)

    /// The most bytes waiting for a write.
    static let pendingLimit = 4 << 20

    private struct State {
        var pending: [UInt8] = []
        var writing = false
        var dropped = 0
    }

    private let descriptor: Int32
    private let state = NIOLockedValueBox(State())

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Writes `line` (ending in a newline), now or with the write under way.
    func write(_ line: String) {
        var batch: [UInt8] = []
        let mustWrite = state.withLockedValue { state in
            if state.pending.count + line.utf8.count > Self.pendingLimit {
                state.dropped += 1
            } else {
                state.pending.append(contentsOf: line.utf8)
            }
            guard !state.writing else { return false }
            state.writing = true
            swap(&batch, &state.pending)
            return true
        }
        guard mustWrite else { return }
        while !batch.isEmpty {
            writeAll(batch)
            batch.removeAll(keepingCapacity: true)
            state.withLockedValue { state in
                if state.dropped > 0, state.pending.count < Self.pendingLimit {
                    state.pending.append(
                        contentsOf: "(\(state.dropped) log lines dropped: standard error was not being read)\n".utf8)
                    state.dropped = 0
                }
                swap(&batch, &state.pending)
                if batch.isEmpty { state.writing = false }
            }
        }
    }

    /// Writes all of `bytes`, retrying after interruptions; on any other failure the rest is lost
    /// (there is nowhere to report it).
    private func writeAll(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let written = systemWrite(descriptor, base + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0, errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
    }
}

/// The C library's `write(2)` (inside ``LineWriter`` the name is its own method's).
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
