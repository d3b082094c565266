import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// Where the server keeps its files, each under a key such as `ab/abcdef….glb`: a folder
/// (``FolderBlobStore``, under `--data`) or an S3 bucket (``S3BlobStore``, `--blob-store`).
///
/// Keys name content (a content hash, and what was made from it), so a blob never changes once
/// stored: readers may cache it, and two instances writing the same key write the same bytes.
/// Failures are ``BlobStoreError``s, which tell a store that may answer later from one that is full.
protocol BlobStore: Sendable {
    /// Stores what `chunks` yields under a provisional name and returns it; reads do not see it
    /// until ``commit(_:as:)``. A failure (the source's own error rethrown as it is) leaves nothing.
    func stage(_ chunks: some AsyncSequence<ByteBuffer, any Error>) async throws -> StagedBlob

    /// Gives a staged blob its key; when a blob has that key already (the same content), the staged
    /// one is dropped.
    func commit(_ staged: StagedBlob, as key: String) async throws

    /// Drops a staged blob (errors are not reported: housekeeping removes what is left).
    func discard(_ staged: StagedBlob) async

    /// Stores what `chunks` yields under `key`, known before it is read (a content hash the client
    /// declared), unless `check` throws once every byte was read: then nothing is stored, and its
    /// error is thrown. When a blob has that key already, the bytes are read (for `check`) and dropped.
    func store(_ chunks: some AsyncSequence<ByteBuffer, any Error>, as key: String, check: @Sendable () throws -> Void)
        async throws

    /// The size in bytes of the blob under `key`; `nil` when there is none.
    func size(of key: String) async throws -> Int?

    /// The whole blob under `key`; `nil` when there is none.
    func read(_ key: String) async throws -> ByteBuffer?

    /// Stores `bytes` under `key`, in one piece: readers see all of it or nothing.
    func write(_ key: String, _ bytes: ByteBuffer, contentType: String) async throws

    /// The blob under `key` as a response body of `length` bytes: whole, or the bytes of `range`,
    /// streamed as they are read.
    func body(_ key: String, range: ClosedRange<Int>?, length: Int, context: ServerContext) async throws
        -> ResponseBody

    /// Removes the blob under `key` (nothing happens when there is none).
    func delete(_ key: String) async throws

    /// Every blob, staged ones included (their keys start with ``StagedBlob/prefix``).
    func list() async throws -> [BlobListing]

    /// Fails with the reason when the store cannot be used now (for `/health/ready`).
    func checkReady() async throws

    /// Makes what the store needs before its first use (the folder, the bucket).
    func prepare() async throws
}

extension BlobStore {
    /// Stages the blob, checks it and commits it: what a store that cannot do better does.
    func store(_ chunks: some AsyncSequence<ByteBuffer, any Error>, as key: String, check: @Sendable () throws -> Void)
        async throws
    {
        let staged = try await stage(chunks)
        do {
            try check()
        } catch {
            await discard(staged)
            throw error
        }
        try await commit(staged, as: key)
    }
}

/// A blob stored under a provisional name, not yet visible by its key.
struct StagedBlob: Sendable, Equatable {
    /// The provisional key, under ``prefix``.
    var name: String

    /// The folder staged blobs are kept under.
    static let prefix = "incoming/"

    /// A new provisional name.
    static func make() -> StagedBlob { StagedBlob(name: prefix + UUID().uuidString) }
}

/// One blob in a store's listing.
struct BlobListing: Sendable, Equatable {
    /// Its key.
    var key: String
    /// Its size in bytes.
    var size: Int
    /// When it was stored.
    var modified: Date
}

/// A blob store's failure, by what a client can do about it.
struct BlobStoreError: Error, CustomStringConvertible, Equatable {
    /// What went wrong.
    enum Kind: Sendable, Equatable {
        /// The store did not answer, or answered that it cannot now: a later attempt may succeed.
        case unavailable
        /// The store has no room left.
        case full
        /// Anything else: a refusal (wrong credentials, say) or damaged content.
        case failed
    }

    var kind: Kind
    var message: String

    init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    var description: String { message }

    /// How long a client is asked to wait before trying again when the store is unavailable.
    static let retryAfterSeconds = 10
}

extension APIError {
    /// The answer to a blob store's failure: `503` with `Retry-After` while it is unavailable, `507`
    /// when it is full, a logged `500` otherwise (`nil`).
    init?(_ error: BlobStoreError) {
        switch error.kind {
        case .unavailable:
            self.init(
                .serviceUnavailable, .storageUnavailable,
                "the file store cannot be reached just now; try again in \(BlobStoreError.retryAfterSeconds) s")
            extraHeaders[.retryAfter] = String(BlobStoreError.retryAfterSeconds)
        case .full:
            self.init(
                HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage"), .insufficientStorage,
                "the server's file store is full; nothing was stored")
        case .failed:
            return nil
        }
    }
}
