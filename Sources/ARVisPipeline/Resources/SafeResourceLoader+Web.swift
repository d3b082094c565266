import ARVisSpec
import ARVisSupport
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension SafeResourceLoader {
    /// Downloads `text`, following redirects by hand so that every hop's addresses are checked.
    func download(_ text: String, reference: String) async throws(PipelineError) -> [UInt8] {
        let deadline =
            DispatchTime.now() + .nanoseconds(Int(min(policy.timeout.components.seconds, 86_400) * 1_000_000_000))
        var current = text
        for _ in 0...max(0, policy.maximumRedirects) {
            guard let url = URL(string: current), let scheme = url.scheme?.lowercased(),
                scheme == "http" || scheme == "https"
            else {
                throw PipelineError(.refused, "\(current.prefix(100)) is not an http or https URL", location: reference)
            }
            let host = ResourceReference.host(of: current)
            guard !host.isEmpty else { throw PipelineError(.unreadable, "the URL has no host", location: reference) }
            let addresses = try await HostResolver.addresses(of: host, deadline: deadline, reference: reference)
            if let refused = addresses.first(where: { !policy.allows($0) }) {
                let hop = current == text ? "" : " (redirected to \(host))"
                throw PipelineError(
                    .refused, "\(host) is \(refused)\(hop), not a public internet address", location: reference)
            }
            let request = Self.request(
                for: url, scheme: scheme, host: host, pinnedTo: addresses.first { $0.bytes.count == 4 } ?? addresses[0],
                deadline: deadline)
            switch try await Download.run(
                request, maximumBytes: policy.maximumBytes, deadline: deadline, reference: reference)
            {
            case .body(let bytes): return bytes
            case .redirect(let location):
                guard let next = URL(string: location, relativeTo: url)?.absoluteString else {
                    throw PipelineError(
                        .network, "the redirect's Location \(location.prefix(100)) is not a URL", location: reference)
                }
                current = next
            }
        }
        throw PipelineError(.network, "more than \(policy.maximumRedirects) redirects", location: reference)
    }

    /// The request: plain http goes to the checked address with the name in `Host`; https goes by name.
    static func request(for url: URL, scheme: String, host: String, pinnedTo address: IPAddress, deadline: DispatchTime)
        -> URLRequest
    {
        var target = url
        var hostHeader: String?
        if scheme == "http", IPAddress(host) == nil,
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        {
            components.host = address.bytes.count == 16 ? "[\(address)]" : "\(address)"
            if let pinned = components.url {
                target = pinned
                hostHeader = url.port.map { "\(host):\($0)" } ?? host
            }
        }
        let remaining =
            Double(deadline.uptimeNanoseconds &- min(deadline.uptimeNanoseconds, DispatchTime.now().uptimeNanoseconds))
            / 1e9
        var request = URLRequest(
            url: target, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: max(1, remaining))
        request.setValue("arvis", forHTTPHeaderField: "User-Agent")
        request.httpShouldHandleCookies = false
        if let hostHeader { request.setValue(hostHeader, forHTTPHeaderField: "Host") }
        return request
    }
}

/// Resolves host names off the cooperative threads, giving up at a deadline.
enum HostResolver {
    static func addresses(of host: String, deadline: DispatchTime, reference: String) async throws(PipelineError)
        -> [IPAddress]
    {
        if let literal = IPAddress(host) { return [literal] }
        let answer = OneShot<[IPAddress]?>()
        let result = await withCheckedContinuation { continuation in
            answer.wait(continuation, default: nil, deadline: deadline)
            // getaddrinfo blocks: on a thread of its own, not one that tasks need.
            OwnThread.start("host lookup") { answer.resume(resolve(host)) }
        }
        guard let result else { throw PipelineError(.timedOut, "resolving \(host) timed out", location: reference) }
        guard !result.isEmpty else { throw PipelineError(.network, "no such host \(host)", location: reference) }
        return result
    }

    /// Every address `getaddrinfo` gives for `host`.
    static func resolve(_ host: String) -> [IPAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc) || canImport(Musl)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0 else { return [] }
        defer { freeaddrinfo(list) }
        var addresses: [IPAddress] = []
        var entry = list
        while let current = entry {
            if let socketAddress = current.pointee.ai_addr {
                switch Int32(socketAddress.pointee.sa_family) {
                case AF_INET:
                    socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                        withUnsafeBytes(of: $0.pointee.sin_addr) {
                            IPAddress(bytes: Array($0)).map { addresses.append($0) }
                        }
                    }
                case AF_INET6:
                    socketAddress.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                        withUnsafeBytes(of: $0.pointee.sin6_addr) {
                            IPAddress(bytes: Array($0)).map { addresses.append($0) }
                        }
                    }
                default: break
                }
            }
            entry = current.pointee.ai_next
        }
        return addresses
    }
}

/// A continuation resumed once: by the work, or by the deadline with a default value.
final class OneShot<Value: Sendable>: Sendable {
    private let continuation = Locked<CheckedContinuation<Value, Never>?>(nil)

    /// Holds `continuation` and resumes it with `fallback` at `deadline` unless the work resumed it first.
    func wait(_ continuation: CheckedContinuation<Value, Never>, default fallback: Value, deadline: DispatchTime) {
        self.continuation.value = continuation
        DispatchQueue.global().asyncAfter(deadline: deadline) { self.resume(fallback) }
    }

    /// Resumes the continuation with `value`, if nothing has yet.
    func resume(_ value: Value) {
        let held = continuation.withLock { held in
            defer { held = nil }
            return held
        }
        held?.resume(returning: value)
    }
}

/// The one URL session every download shares, with a delegate that hands each task's events to its
/// ``Download``.
///
/// FoundationNetworking on Linux is fragile with many short-lived sessions (threads tied up,
/// deadlocks on invalidation), and creating, resuming and cancelling a task wait on the session's
/// work queue, which a stalled or flooding transfer can hold. So there is one session, and every
/// call into it is made from `control`, a serial queue of its own: callers (on Swift's few
/// cooperative threads) never block, and their deadlines always fire.
final class DownloadSession: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    static let shared = DownloadSession()

    /// Where tasks are started and cancelled, in order.
    let control = DispatchQueue(label: "arvis.download-session")
    private let downloads = Locked<[Int: Download]>([:])
    private lazy var session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        return URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
    }()

    /// Starts `request`, whose events go to `download`; call on `control`.
    func start(_ request: URLRequest, for download: Download) -> URLSessionDataTask {
        let task = session.dataTask(with: request)
        downloads.withLock { $0[task.taskIdentifier] = download }
        task.resume()
        return task
    }

    /// Stops sending events for `task` and cancels it; call on `control`.
    func finish(_ task: URLSessionTask) {
        _ = downloads.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        task.cancel()
    }

    private func download(for task: URLSessionTask) -> Download? {
        downloads.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        // Never followed here: the caller checks the new address first.
        completionHandler(nil)
        download(for: task)?.redirected(
            to: response.value(forHTTPHeaderField: "Location") ?? request.url?.absoluteString ?? "")
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        completionHandler(download(for: dataTask)?.accepts(response) ?? false ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        // Over the limit, or no longer wanted: stop the transfer.
        if !(download(for: dataTask)?.received(data) ?? false) { control.async { self.finish(dataTask) } }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        download(for: task)?.completed(error)
    }
}

/// One HTTP exchange without following redirects, its body capped as it streams in.
final class Download: Sendable {
    /// What came back.
    enum Outcome: Sendable {
        case body([UInt8])
        case redirect(String)
    }

    private let maximumBytes: Int
    private let reference: String
    private let outcome = OneShot<Result<Outcome, PipelineError>>()
    private let body = Locked<[UInt8]>([])

    private init(maximumBytes: Int, reference: String) {
        self.maximumBytes = maximumBytes
        self.reference = reference
    }

    static func run(_ request: URLRequest, maximumBytes: Int, deadline: DispatchTime, reference: String)
        async throws(PipelineError) -> Outcome
    {
        let download = Download(maximumBytes: maximumBytes, reference: reference)
        let timedOut = PipelineError(.timedOut, "no complete answer in time", location: reference)
        let session = DownloadSession.shared
        let task = Locked<URLSessionDataTask?>(nil)
        let result = await withCheckedContinuation { continuation in
            download.outcome.wait(continuation, default: .failure(timedOut), deadline: deadline)
            session.control.async { task.value = session.start(request, for: download) }
        }
        session.control.async { task.value.map(session.finish) }
        return try result.get()
    }

    private func failure(_ code: PipelineError.Code, _ message: String) -> Result<Outcome, PipelineError> {
        .failure(PipelineError(code, message, location: reference))
    }

    func redirected(to location: String) {
        outcome.resume(.success(.redirect(location)))
    }

    /// Whether to go on receiving the body of `response`.
    func accepts(_ response: URLResponse) -> Bool {
        guard let http = response as? HTTPURLResponse else { return true }
        if (300..<400).contains(http.statusCode), let location = http.value(forHTTPHeaderField: "Location") {
            outcome.resume(.success(.redirect(location)))
            return false
        }
        guard (200..<300).contains(http.statusCode) else {
            outcome.resume(
                failure(http.statusCode == 404 ? .notFound : .httpStatus, "the server answered HTTP \(http.statusCode)")
            )
            return false
        }
        if http.expectedContentLength > Int64(maximumBytes) {
            outcome.resume(
                failure(.tooLarge, "\(http.expectedContentLength) bytes is over the \(maximumBytes)-byte limit"))
            return false
        }
        return true
    }

    /// Adds `data` to the body; `false` once the body is over the limit.
    func received(_ data: Data) -> Bool {
        let fits = body.withLock { body in
            guard body.count + data.count <= maximumBytes else { return false }
            body += data
            return true
        }
        if !fits { outcome.resume(failure(.tooLarge, "the body passed the \(maximumBytes)-byte limit")) }
        return fits
    }

    func completed(_ error: (any Error)?) {
        guard let error else { return outcome.resume(.success(.body(body.value))) }
        let timedOut = (error as? URLError)?.code == .timedOut
        outcome.resume(
            failure(
                timedOut ? .timedOut : .network, timedOut ? "no complete answer in time" : error.localizedDescription))
    }
}
