import ARVisSupport
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A minimal HTTP/1.1 server on a loopback address, for testing what clients fetch: each request is
/// answered by a handler, and every request line and `Host` header is recorded.
public final class LoopbackHTTPServer: Sendable {
    /// How the server answers one request.
    public enum Reply: Sendable {
        /// 200 with this body.
        case ok([UInt8], contentLength: Bool = true)
        /// A redirect to `location` with this status.
        case redirect(String, status: Int = 302)
        /// This status and an empty body.
        case status(Int)
        /// 200 with a body that never ends, written until the client goes away.
        case endless
        /// 200 with headers, then nothing for this many seconds before the body.
        case stall(seconds: Double, body: [UInt8])
    }

    /// One request the server received.
    public struct Request: Sendable, Hashable {
        /// The request target, such as `/image.png`.
        public var path: String
        /// The `Host` header.
        public var host: String
    }

    /// The port it listens on.
    public let port: Int
    /// The address it listens on.
    public let address: String
    private let socket: Int32
    private let handler: @Sendable (String) -> Reply
    private let received = Locked<[Request]>([])

    /// Starts a server on `address` (a 127.x.y.z address) and an ephemeral port.
    public init(address: String = "127.0.0.1", handler: @escaping @Sendable (String) -> Reply) throws {
        signal(SIGPIPE, SIG_IGN)
        self.address = address
        self.handler = handler
        #if canImport(Glibc)
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        var yes: Int32 = 1
        setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_port = 0
        inet_pton(AF_INET, address, &local.sin_addr)
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(socket, 16) == 0 else {
            close(socket)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "cannot listen on \(address)"])
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        self.socket = socket
        port = Int(UInt16(bigEndian: local.sin_port))
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    /// `http://ADDRESS:PORT` followed by `path`.
    public func url(_ path: String) -> String { "http://\(address):\(port)\(path)" }

    /// The requests received so far.
    public var requests: [Request] { received.value }

    /// Stops listening.
    public func stop() {
        shutdown(socket, Int32(SHUT_RDWR))
        close(socket)
    }

    private func acceptLoop() {
        while true {
            let client = accept(socket, nil, nil)
            guard client >= 0 else { return }
            Thread { [self] in serve(client) }.start()
        }
    }

    private func serve(_ client: Int32) {
        defer { close(client) }
        var request: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !request.containsHeaderEnd {
            let count = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return }
            request += buffer[..<count]
        }
        let lines = String(decoding: request, as: UTF8.self).components(separatedBy: "\r\n")
        let path = lines.first?.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
        let host =
            lines.first { $0.lowercased().hasPrefix("host:") }.map {
                String($0.dropFirst(5)).trimmingCharacters(in: .whitespaces)
            } ?? ""
        received.withLock { $0.append(Request(path: path, host: host)) }
        switch handler(path) {
        case .ok(let body, let contentLength):
            let length = contentLength ? "Content-Length: \(body.count)\r\n" : ""
            send(client, "HTTP/1.1 200 OK\r\n\(length)Connection: close\r\n\r\n", body)
        case .redirect(let location, let status):
            send(
                client,
                "HTTP/1.1 \(status) Moved\r\nLocation: \(location)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
                [])
        case .status(let status):
            send(client, "HTTP/1.1 \(status) Status\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", [])
        case .endless:
            guard send(client, "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n", []) else { return }
            let chunk = [UInt8](repeating: 0x41, count: 1 << 16)
            while send(client, "", chunk) {}
        case .stall(let seconds, let body):
            guard send(client, "HTTP/1.1 200 OK\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n", [])
            else { return }
            Thread.sleep(forTimeInterval: seconds)
            send(client, "", body)
        }
    }

    @discardableResult
    private func send(_ client: Int32, _ head: String, _ body: [UInt8]) -> Bool {
        let bytes = Array(head.utf8) + body
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes {
                Glibc.send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }
}

private extension [UInt8] {
    var containsHeaderEnd: Bool {
        count >= 4
            && (0...(count - 4)).contains {
                self[$0] == 13 && self[$0 + 1] == 10 && self[$0 + 2] == 13 && self[$0 + 3] == 10
            }
    }
}
