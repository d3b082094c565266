import AsyncHTTPClient
import Foundation
import Hummingbird
import NIOConcurrencyHelpers
import NIOCore

/// Blobs as objects in an S3 bucket (`--blob-store s3://…`), shared by every instance.
///
/// An upload streams into a multipart upload under `incoming/`, which no reader sees until it is
/// complete, then is copied to its key inside the store; one whose key is known before it is read
/// (the client declared its content hash) streams to its key directly, and is completed only once
/// its bytes were checked. Downloads stream the store's answer through,
/// byte ranges included. Small blobs (thumbnails) are kept in a ``BlobCache`` once read or written,
/// and every size once learnt, so cached reads go on while the store is down.
struct S3BlobStore: BlobStore {
    let client: S3Client
    let cache: BlobCache

    init(client: S3Client, cache: BlobCache = BlobCache()) {
        self.client = client
        self.cache = cache
    }

    func stage(_ chunks: some AsyncSequence<ByteBuffer, any Error>) async throws -> StagedBlob {
        let staged = StagedBlob.make()
        do {
            _ = try await client.upload(staged.name, from: chunks, contentType: "application/octet-stream")
        } catch let error as S3Error {
            throw Self.blobError(error)
        }
        return staged
    }

    func commit(_ staged: StagedBlob, as key: String) async throws {
        do throws(S3Error) {
            if try await client.head(key) == nil { try await client.copy(staged.name, to: key) }
        } catch {
            await discard(staged)
            throw Self.blobError(error)
        }
        await discard(staged)
    }

    func store(_ chunks: some AsyncSequence<ByteBuffer, any Error>, as key: String, check: @Sendable () throws -> Void)
        async throws
    {
        do {
            if try await client.head(key) != nil {
                for try await _ in chunks {}
                try check()
            } else {
                _ = try await client.upload(key, from: chunks, contentType: "application/octet-stream", check: check)
            }
        } catch let error as S3Error {
            throw Self.blobError(error)
        }
    }

    func discard(_ staged: StagedBlob) async {
        try? await client.delete(staged.name)
    }

    func size(of key: String) async throws -> Int? {
        if let size = cache.size(of: key) { return size }
        do throws(S3Error) {
            guard let object = try await client.head(key) else { return nil }
            cache.remember(size: object.size, of: key)
            return object.size
        } catch {
            throw Self.blobError(error)
        }
    }

    func read(_ key: String) async throws -> ByteBuffer? {
        if let bytes = cache.bytes(of: key) { return bytes }
        do throws(S3Error) {
            guard let bytes = try await client.bytes(key, limit: Int(Int32.max)) else { return nil }
            cache.keep(bytes, for: key)
            return bytes
        } catch {
            throw Self.blobError(error)
        }
    }

    func write(_ key: String, _ bytes: ByteBuffer, contentType: String) async throws {
        do throws(S3Error) {
            try await client.put(key, bytes, contentType: contentType)
        } catch {
            throw Self.blobError(error)
        }
        cache.keep(bytes, for: key)
    }

    func body(_ key: String, range: ClosedRange<Int>?, length: Int, context: ServerContext) async throws
        -> ResponseBody
    {
        // A small blob (a thumbnail) is read whole and kept, so it is served while the store is away.
        var kept = cache.bytes(of: key)
        if kept == nil, length <= cache.largest { kept = try await read(key) }
        if let bytes = kept {
            guard let range else { return ResponseBody(byteBuffer: bytes) }
            return ResponseBody(byteBuffer: bytes.getSlice(at: range.lowerBound, length: range.count) ?? ByteBuffer())
        }
        let answer: HTTPClientResponse?
        do throws(S3Error) {
            answer = try await client.get(key, range: range)
        } catch {
            throw Self.blobError(error)
        }
        guard let answer else {
            throw BlobStoreError(.failed, "\(key) is missing from the bucket \(client.location.bucket)")
        }
        let expected = range?.count ?? length
        return ResponseBody(contentLength: expected) { writer in
            var sent = 0
            for try await buffer in answer.body {
                sent += buffer.readableBytes
                try await writer.write(buffer)
            }
            // A store that ends early must not look like a whole file: the connection is dropped.
            guard sent == expected else {
                throw BlobStoreError(.unavailable, "the store sent \(sent) of \(expected) bytes of \(key)")
            }
            try await writer.finish(nil)
        }
    }

    func delete(_ key: String) async throws {
        cache.forget(key)
        do throws(S3Error) { try await client.delete(key) } catch { throw Self.blobError(error) }
    }

    func list() async throws -> [BlobListing] {
        do throws(S3Error) {
            return try await client.list().map { BlobListing(key: $0.key, size: $0.size, modified: $0.modified) }
        } catch {
            throw Self.blobError(error)
        }
    }

    func prepare() async throws {
        do throws(S3Error) { try await client.createBucket() } catch { throw Self.blobError(error) }
    }

    func checkReady() async throws {
        do throws(S3Error) { try await client.checkBucket() } catch { throw Self.blobError(error) }
    }

    /// A store's failure by kind: unreachable or `5xx` is ``BlobStoreError/Kind/unavailable``; a
    /// refusal (`4xx`) is ``BlobStoreError/Kind/failed``, as the store named it.
    static func blobError(_ error: S3Error) -> BlobStoreError {
        if error.code == "EntityTooLarge" || error.code == "QuotaExceeded" { return BlobStoreError(.full, "\(error)") }
        return BlobStoreError(error.isTransient ? .unavailable : .failed, "the object store: \(error)")
    }
}

/// Small blobs kept in memory, least recently used dropped first past ``capacity`` bytes, and the
/// sizes of blobs seen. Blobs never change under a key, so nothing kept here goes stale.
final class BlobCache: Sendable {
    /// The most bytes kept: 64 MB.
    let capacity: Int
    /// The largest blob kept: 2 MB (a 1024-pixel thumbnail is about half that).
    let largest: Int
    private let state: NIOLockedValueBox<State>

    private struct State {
        var entries: LRUCache<String, ByteBuffer>
        var sizes: [String: Int] = [:]
    }

    /// The most sizes remembered; past it, the memory starts again.
    static let sizesKept = 100_000

    init(capacity: Int = 64 << 20, largest: Int = 2 << 20) {
        self.capacity = capacity
        self.largest = largest
        state = NIOLockedValueBox(State(entries: LRUCache(capacity: .max, weightCapacity: capacity)))
    }

    func bytes(of key: String) -> ByteBuffer? {
        state.withLockedValue { $0.entries.value(for: key) }
    }

    func size(of key: String) -> Int? {
        state.withLockedValue { $0.sizes[key] ?? $0.entries.value(for: key)?.readableBytes }
    }

    func remember(size: Int, of key: String) {
        state.withLockedValue { state in
            if state.sizes.count >= Self.sizesKept { state.sizes.removeAll(keepingCapacity: true) }
            state.sizes[key] = size
        }
    }

    /// Keeps `bytes` when small enough, dropping the least recently used past the capacity.
    func keep(_ bytes: ByteBuffer, for key: String) {
        remember(size: bytes.readableBytes, of: key)
        guard bytes.readableBytes <= largest else { return }
        state.withLockedValue { $0.entries.insert(bytes, weight: bytes.readableBytes, for: key) }
    }

    func forget(_ key: String) {
        state.withLockedValue { state in
            state.entries.remove(key)
            state.sizes[key] = nil
        }
    }
}
