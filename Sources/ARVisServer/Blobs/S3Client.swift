import ARVisSupport
import AsyncHTTPClient
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1

/// A bucket of an S3-compatible object store, as `s3://BUCKET?endpoint=URL&region=R` names it.
struct S3Location: Sendable, Equatable {
    var bucket: String
    /// `scheme://host[:port]`, without a trailing slash.
    var endpoint: String
    var region: String

    /// The `Host` header of requests: the endpoint's host and port.
    var host: String {
        let rest = endpoint.split(separator: "://", maxSplits: 1).last.map(String.init) ?? endpoint
        return rest.lowercased()
    }
}

extension S3Location {
    /// Reads `s3://BUCKET?endpoint=URL&region=R`; without `endpoint`, AWS's for the region; without
    /// `region`, `us-east-1`.
    init(url text: String) throws(S3Error) {
        guard let url = URLComponents(string: text), url.scheme?.lowercased() == "s3", let bucket = url.host,
            url.path.isEmpty || url.path == "/"
        else { throw S3Error("a blob store is s3://BUCKET?endpoint=URL&region=REGION, not \(text)") }
        guard Self.isBucketName(bucket) else {
            throw S3Error("'\(bucket)' is not a bucket name: 3 to 63 lowercase letters, digits, '.' or '-'")
        }
        let items = url.queryItems ?? []
        let region = items.first { $0.name == "region" }?.value ?? "us-east-1"
        guard !region.isEmpty, region.utf8.allSatisfy({ $0 < 0x80 && $0 != UInt8(ascii: "/") }) else {
            throw S3Error("'\(region)' is not a region")
        }
        let endpoint = items.first { $0.name == "endpoint" }?.value ?? "https://s3.\(region).amazonaws.com"
        guard let parsed = URLComponents(string: endpoint), ["http", "https"].contains(parsed.scheme?.lowercased()),
            let host = parsed.host, !host.isEmpty, parsed.path.isEmpty || parsed.path == "/", parsed.query == nil
        else { throw S3Error("the endpoint is an http or https address without a path, not \(endpoint)") }
        self.bucket = bucket
        self.region = region
        self.endpoint = endpoint.hasSuffix("/") ? String(endpoint.dropLast()) : endpoint
    }

    /// S3's bucket names: 3–63 lowercase letters, digits, `.` and `-`, starting and ending with a
    /// letter or digit.
    static func isBucketName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        func isLetterOrDigit(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
        guard (3...63).contains(bytes.count), let first = bytes.first, let last = bytes.last,
            isLetterOrDigit(first), isLetterOrDigit(last)
        else { return false }
        return bytes.allSatisfy { isLetterOrDigit($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") }
    }
}

/// What an object store answered instead of success, or why it could not be reached.
struct S3Error: Error, CustomStringConvertible, Equatable {
    /// The HTTP status, `nil` when nothing answered.
    var status: Int?
    /// S3's error code (`SignatureDoesNotMatch`, `NoSuchKey`, `SlowDown` …), when it sent one.
    var code: String?
    var message: String

    init(_ message: String, status: Int? = nil, code: String? = nil) {
        self.message = message
        self.status = status
        self.code = code
    }

    var description: String {
        [status.map { "HTTP \($0)" }, code, message].compactMap { $0 }.joined(separator: ": ")
    }

    /// Whether trying again may succeed: the store was unreachable, timed out, or answered 5xx.
    var isTransient: Bool { status.map { $0 >= 500 } ?? true }
}

/// An object's size and entity tag.
struct S3Object: Sendable, Equatable {
    var size: Int
    var etag: String
}

/// S3's API over async-http-client, path-style (`ENDPOINT/BUCKET/KEY`, which AWS, SeaweedFS and
/// MinIO all answer), every request signed with ``SigV4Signer`` and its body's SHA-256, which the
/// store checks: a body damaged on the way is refused, never stored.
///
/// Requests that fail for a passing reason (no answer, a timeout, a 5xx) are sent again, at most
/// ``attempts`` times with a growing pause. A file is uploaded in parts of ``partSize`` bytes
/// (multipart upload), so it never sits whole in memory; a failed upload is aborted, leaving no
/// object and no parts behind.
final class S3Client: Sendable {
    let location: S3Location
    private let signer: SigV4Signer
    private let http: HTTPClient
    /// How many times a request is sent before its failure is reported.
    static let attempts = 4
    /// The size of each part of a multipart upload (S3's smallest is 5 MiB, but for the last).
    static let partSize = 8 << 20
    /// How many parts of one upload are sent at once: the next part is read from the client while
    /// the store takes the others (at most this many parts, plus one being read, are in memory).
    static let partsAtOnce = 3
    /// How long one request may take.
    static let timeout = Duration.seconds(60)
    /// The most bytes of an error or an XML answer read.
    static let answerLimit = 1 << 20

    /// The HTTP client of every store: a connection that cannot be made fails at once (in at most
    /// 2 s), for ``send(_:key:query:headers:body:readsBody:)`` to retry or report, instead of being
    /// tried again until the request's deadline.
    static let storeHTTP: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.timeout.connect = .seconds(2)
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    init(_ location: S3Location, credentials: SigV4Signer.Credentials, http: HTTPClient = S3Client.storeHTTP) {
        self.location = location
        signer = SigV4Signer(credentials: credentials, region: location.region)
        self.http = http
    }

    // MARK: Objects

    /// Stores `body` under `key` in one request.
    func put(_ key: String, _ body: ByteBuffer, contentType: String) async throws(S3Error) {
        _ = try await send(.PUT, key: key, headers: [("Content-Type", contentType)], body: body)
    }

    /// The object under `key` as the store answers it (`200`, or `206` for a `range`), its body
    /// still to be read; `nil` when there is none.
    func get(_ key: String, range: ClosedRange<Int>? = nil) async throws(S3Error) -> HTTPClientResponse? {
        let headers = range.map { [("Range", "bytes=\($0.lowerBound)-\($0.upperBound)")] } ?? []
        do throws(S3Error) {
            return try await send(.GET, key: key, headers: headers, readsBody: true)
        } catch  where error.status == 404 {
            return nil
        }
    }

    /// The whole object under `key`, at most `limit` bytes; `nil` when there is none.
    func bytes(_ key: String, limit: Int) async throws(S3Error) -> ByteBuffer? {
        guard let response = try await get(key) else { return nil }
        do { return try await response.body.collect(upTo: limit) } catch {
            throw S3Error("reading \(key): \(error)")
        }
    }

    /// The size and tag of the object under `key`; `nil` when there is none.
    func head(_ key: String) async throws(S3Error) -> S3Object? {
        do throws(S3Error) {
            let response = try await send(.HEAD, key: key)
            let size = response.headers.first(name: "Content-Length").flatMap(Int.init) ?? 0
            return S3Object(size: size, etag: response.headers.first(name: "ETag") ?? "")
        } catch  where error.status == 404 {
            return nil
        }
    }

    /// Removes the object under `key` (nothing happens when there is none).
    func delete(_ key: String) async throws(S3Error) {
        _ = try await send(.DELETE, key: key)
    }

    /// Copies the object under `source` to `key`, inside the store.
    func copy(_ source: String, to key: String) async throws(S3Error) {
        let from = "/" + location.bucket + "/" + PercentEncoding.encoded(source, keepingSlashes: true)
        // The store may answer 200 and an error in the body.
        let answer = try await xml(.PUT, key: key, headers: [("x-amz-copy-source", from)])
        if let code = XMLText.first("Code", in: answer) {
            throw S3Error(XMLText.first("Message", in: answer) ?? "copying \(source) failed", code: code)
        }
    }

    /// Every object whose key starts with `prefix`, a page of up to 1 000 at a time.
    func list(prefix: String = "") async throws(S3Error) -> [S3Listing] {
        var found: [S3Listing] = []
        var token: String?
        repeat {
            var query = [("list-type", "2")]
            if !prefix.isEmpty { query.append(("prefix", prefix)) }
            if let token { query.append(("continuation-token", token)) }
            let answer = try await xml(.GET, key: nil, query: query)
            for entry in XMLText.all("Contents", in: answer) {
                guard let key = XMLText.first("Key", in: entry) else { continue }
                found.append(
                    S3Listing(
                        key: key, size: XMLText.first("Size", in: entry).flatMap(Int.init) ?? 0,
                        modified: XMLText.first("LastModified", in: entry).flatMap(S3Listing.date) ?? Date()))
            }
            token =
                XMLText.first("IsTruncated", in: answer) == "true"
                ? XMLText.first("NextContinuationToken", in: answer) : nil
        } while token != nil
        return found
    }

    /// Fails unless the bucket exists and these credentials may use it.
    func checkBucket() async throws(S3Error) {
        _ = try await send(.HEAD, key: nil)
    }

    /// Makes the bucket (nothing happens when this account has it already).
    func createBucket() async throws(S3Error) {
        do throws(S3Error) {
            _ = try await send(.PUT, key: nil)
        } catch  where error.code == "BucketAlreadyOwnedByYou" || error.code == "BucketAlreadyExists" {
            return
        }
    }

    // MARK: Uploads

    /// Stores what `chunks` yields under `key`, in parts of ``partSize`` bytes, ``partsAtOnce`` at a
    /// time (one request when it all fits in one part); returns the number of bytes. Once every byte
    /// was read, `check` may still refuse them: nothing is stored then, and its error is thrown.
    /// Nothing is stored unless every byte was.
    /// - Throws: ``S3Error`` for the store's failures; the error of `chunks` or `check`, as it is.
    func upload(
        _ key: String, from chunks: some AsyncSequence<ByteBuffer, any Error>, contentType: String,
        check: @Sendable () throws -> Void = {}
    ) async throws -> Int {
        var pending = ByteBuffer()
        var upload: MultipartUpload?
        var total = 0
        do {
            try await withThrowingTaskGroup(of: Void.self) { sending in
                var (sent, inFlight) = (0, 0)
                for try await chunk in chunks {
                    total += chunk.readableBytes
                    var chunk = chunk
                    pending.writeBuffer(&chunk)
                    while pending.readableBytes >= Self.partSize, let part = pending.readSlice(length: Self.partSize) {
                        pending.discardReadBytes()
                        let started: MultipartUpload
                        if let upload {
                            started = upload
                        } else {
                            started = try await MultipartUpload.start(key, contentType: contentType, on: self)
                            upload = started
                        }
                        if inFlight == Self.partsAtOnce {
                            try await sending.next()
                            inFlight -= 1
                        }
                        sent += 1
                        inFlight += 1
                        sending.addTask { [sent] in try await started.add(part, number: sent) }
                    }
                }
                try await sending.waitForAll()
                guard let upload else { return }
                if pending.readableBytes > 0 { try await upload.add(pending, number: sent + 1) }
                try check()
                try await upload.complete()
            }
        } catch {
            await upload?.abort()
            throw error
        }
        if upload == nil {
            try check()
            try await put(key, pending, contentType: contentType)
        }
        return total
    }

    /// One multipart upload under way: its id and the tags of the parts sent.
    private final class MultipartUpload: Sendable {
        let key: String
        let id: String
        let client: S3Client
        private let tags = NIOLockedValueBox<[Int: String]>([:])

        private init(key: String, id: String, client: S3Client) {
            self.key = key
            self.id = id
            self.client = client
        }

        static func start(_ key: String, contentType: String, on client: S3Client) async throws(S3Error)
            -> MultipartUpload
        {
            let answer = try await client.xml(
                .POST, key: key, query: [("uploads", "")], headers: [("Content-Type", contentType)])
            guard let id = XMLText.first("UploadId", in: answer) else {
                throw S3Error("the store started an upload without an UploadId")
            }
            return MultipartUpload(key: key, id: id, client: client)
        }

        /// Sends part `number` (counted from 1).
        func add(_ part: ByteBuffer, number: Int) async throws(S3Error) {
            let response = try await client.send(
                .PUT, key: key, query: [("partNumber", String(number)), ("uploadId", id)], body: part)
            guard let tag = response.headers.first(name: "ETag") else {
                throw S3Error("the store kept part \(number) without an ETag")
            }
            tags.withLockedValue { $0[number] = tag }
        }

        func complete() async throws(S3Error) {
            let parts = tags.withLockedValue { $0 }.sorted { $0.key < $1.key }.map { number, tag in
                "<Part><PartNumber>\(number)</PartNumber><ETag>\(XMLText.escaped(tag))</ETag></Part>"
            }
            let body = "<CompleteMultipartUpload>\(parts.joined())</CompleteMultipartUpload>"
            // The store may answer 200 and an error in the body.
            let answer = try await client.xml(
                .POST, key: key, query: [("uploadId", id)], body: ByteBuffer(string: body))
            if let code = XMLText.first("Code", in: answer) {
                throw S3Error(XMLText.first("Message", in: answer) ?? "completing the upload failed", code: code)
            }
        }

        /// Gives the upload up; the store drops its parts. Failing to is not reported (the store
        /// expires unfinished uploads).
        func abort() async {
            _ = try? await client.send(.DELETE, key: key, query: [("uploadId", id)])
        }
    }

    // MARK: Requests

    /// The XML answer of a request.
    private func xml(
        _ method: HTTPMethod, key: String?, query: [(String, String)] = [], headers: [(String, String)] = [],
        body: ByteBuffer? = nil
    ) async throws(S3Error) -> String {
        let response = try await send(method, key: key, query: query, headers: headers, body: body, readsBody: true)
        do {
            return String(buffer: try await response.body.collect(upTo: Self.answerLimit))
        } catch {
            throw S3Error("reading the store's answer: \(error)")
        }
    }

    /// Sends a signed request, again while it fails for a passing reason; a `2xx` or `3xx` answer is
    /// returned (its body unread when `readsBody`, else drained), anything else thrown as
    /// ``S3Error`` with the store's code and message.
    private func send(
        _ method: HTTPMethod, key: String?, query: [(String, String)] = [], headers: [(String, String)] = [],
        body: ByteBuffer? = nil, readsBody: Bool = false
    ) async throws(S3Error) -> HTTPClientResponse {
        var failure = S3Error("no request was sent")
        for attempt in 0..<Self.attempts {
            if attempt > 0 {
                // 0.1, 0.2, 0.4 s, with up to a quarter more at random so retries spread out.
                let pause = 0.1 * Double(1 << (attempt - 1)) * Double.random(in: 1...1.25)
                try? await Task.sleep(for: .seconds(pause))
            }
            do {
                let response = try await http.execute(
                    signed(method, key: key, query: query, headers: headers, body: body),
                    timeout: .seconds(Int64(Self.timeout.components.seconds)))
                if response.status.code < 400 {
                    if !readsBody { _ = try? await response.body.collect(upTo: Self.answerLimit) }
                    return response
                }
                let text = String(buffer: (try? await response.body.collect(upTo: Self.answerLimit)) ?? ByteBuffer())
                failure = S3Error(
                    XMLText.first("Message", in: text) ?? response.status.reasonPhrase,
                    status: Int(response.status.code), code: XMLText.first("Code", in: text))
            } catch {
                failure = S3Error("\(location.endpoint) did not answer: \(error)")
            }
            guard failure.isTransient else { throw failure }
        }
        throw failure
    }

    /// The request, signed now.
    private func signed(
        _ method: HTTPMethod, key: String?, query: [(String, String)], headers: [(String, String)], body: ByteBuffer?
    ) -> HTTPClientRequest {
        let path = "/" + location.bucket + (key.map { "/" + PercentEncoding.encoded($0, keepingSlashes: true) } ?? "")
        let payloadHash = body.map { Digest.sha256Hex(Array($0.readableBytesView)) } ?? SigV4Signer.emptyPayloadHash
        let toSign = SigV4Signer.Request(
            method: method.rawValue, host: location.host, path: path, query: query.map { ($0.0, $0.1) },
            headers: headers.map { ($0.0, $0.1) }, payloadHash: payloadHash)
        let queryText = SigV4Signer.canonicalQuery(toSign.query)
        var request = HTTPClientRequest(url: location.endpoint + path + (queryText.isEmpty ? "" : "?" + queryText))
        request.method = method
        request.headers.add(name: "Host", value: location.host)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        for header in signer.headers(for: toSign, at: Date()) {
            request.headers.add(name: header.name, value: header.value)
        }
        if let body { request.body = .bytes(body) }
        return request
    }
}

/// One object of a bucket's listing.
struct S3Listing: Sendable, Equatable {
    var key: String
    var size: Int
    var modified: Date

    /// An ISO 8601 time as S3 writes it (`2026-11-27T10:00:00.000Z`, the fraction optional).
    static func date(_ text: String) -> Date? {
        (try? withFraction.parse(text)) ?? (try? withoutFraction.parse(text))
    }

    /// The two forms, made once: a listing reads one date per object.
    private static let withFraction = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    private static let withoutFraction = Date.ISO8601FormatStyle()
}

/// The few pieces of S3's XML answers this client reads: an element's text, by name.
enum XMLText {
    /// The inner text of every `<name>…</name>`, in order (entities left as they are).
    static func all(_ name: String, in xml: String) -> [String] {
        var found: [String] = []
        var rest = xml.startIndex..<xml.endIndex
        while let open = xml.range(of: "<\(name)>", range: rest),
            let close = xml.range(of: "</\(name)>", range: open.upperBound..<xml.endIndex)
        {
            found.append(String(xml[open.upperBound..<close.lowerBound]))
            rest = close.upperBound..<xml.endIndex
        }
        return found
    }

    /// The text of the first `<name>…</name>`, entities decoded; `nil` when there is none.
    static func first(_ name: String, in xml: String) -> String? {
        guard let open = xml.range(of: "<\(name)>"),
            let close = xml.range(of: "</\(name)>", range: open.upperBound..<xml.endIndex)
        else { return nil }
        return unescaped(String(xml[open.upperBound..<close.lowerBound]))
    }

    /// `text` with XML's five entities decoded.
    static func unescaped(_ text: String) -> String {
        guard text.contains("&") else { return text }
        return text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    /// `text` with `&`, `<`, `>` and `"` escaped for an element.
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
