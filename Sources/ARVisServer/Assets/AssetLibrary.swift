import ARVisGraphics
import ARVisModel
import ARVisStore
import ARVisSupport
import Crypto
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle

/// The gallery's files and the work done on them: uploads streamed into the ``BlobStore`` under
/// their SHA-256, then, one asset at a time, the model read (its hash checked), summarised, drawn at
/// 360 and 1024 pixels and written in the other format (GLB ⇄ USDZ). Each made file is written once
/// per content hash.
///
/// Keys: `ab/abcdef….glb` (an upload or a conversion), `ab/abcdef…-360.png`, `ab/abcdef…-1024.png`,
/// and `incoming/` for uploads in flight.
final class AssetLibrary: Service, Sendable {
    let blobs: any BlobStore
    let store: Store
    let logger: Logger
    private let queue: AsyncStream<(projectID: String, asset: Asset)>
    private let enqueue: AsyncStream<(projectID: String, asset: Asset)>.Continuation
    /// The assets queued or being processed, so one is never queued twice.
    private let pending = PendingSet()

    /// The thumbnail sizes made for every asset.
    static let thumbnailSizes = [360, 1024]

    /// How long processing waits before trying an asset again after the blob store could not be
    /// reached.
    let retryPause = Duration.seconds(5)

    init(blobs: any BlobStore, store: Store, logger: Logger) {
        self.blobs = blobs
        self.store = store
        self.logger = logger
        (queue, enqueue) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
    }

    /// A library keeping its files in the folder `directory`.
    convenience init(directory: String, store: Store, logger: Logger) {
        self.init(
            blobs: FolderBlobStore(root: URL(fileURLWithPath: directory, isDirectory: true)), store: store,
            logger: logger)
    }

    // MARK: Files

    /// The key of the model with `hash` in `format` (the upload, or its conversion).
    static func modelKey(_ hash: String, _ format: ModelFormat) -> String {
        "\(hash.prefix(2))/\(hash).\(format.rawValue)"
    }

    /// The key of the thumbnail of `size` pixels of the model with `hash`.
    static func thumbnailKey(_ hash: String, size: Int) -> String { "\(hash.prefix(2))/\(hash)-\(size).png" }

    /// The content hash a key belongs to (its first 64 characters after the folder), or `nil`.
    static func contentHash(of key: String) -> String? {
        guard key.count > 3, key.dropFirst(2).hasPrefix("/") else { return nil }
        let hash = String(key.dropFirst(3).prefix { $0 != "." && $0 != "-" })
        guard hash.count == 64, hash.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }),
            key.hasPrefix(hash.prefix(2))
        else { return nil }
        return hash
    }

    /// Streams an upload into the blob store: at most `limit` bytes and what the project's `quota`
    /// leaves, hashed as it arrives, never held whole in memory. The file's format is told by its
    /// first bytes. Refused, it leaves nothing stored.
    ///
    /// When the client declared the file's SHA-256 and format (`declared`), the upload goes to its
    /// key at once and is kept only if its bytes hash to it; else it is staged under a provisional
    /// name and then given its key (in a bucket, a copy inside the store).
    /// - Returns: its SHA-256 in hex, its size and format.
    /// - Throws: ``APIError`` `413` past `limit`, the quota's `403` past what it leaves, `415` for a file that is neither GLB nor USDZ (or
    ///   not the declared format), `400` for a file that does not hash to the declared SHA-256;
    ///   ``BlobStoreError`` when it cannot be stored.
    func receive(
        _ body: some AsyncSequence<ByteBuffer, any Error>, limit: Int,
        quota: (left: Int, refusal: @Sendable (Int) -> APIError),
        declared: (hash: String, format: ModelFormat)? = nil
    ) async throws -> (hash: String, size: Int, format: ModelFormat) {
        let meter = UploadMeter(limit: limit, quota: quota)
        let chunks = body.map { buffer in try meter.take(buffer) }
        if let declared {
            try await blobs.store(chunks, as: Self.modelKey(declared.hash, declared.format)) {
                let (hash, _, head) = meter.result()
                guard try Self.format(of: head) == declared.format else {
                    throw APIError(
                        .unsupportedMediaType, .unsupportedModel,
                        "the file is not the \(declared.format.rawValue.uppercased()) its Content-Type says")
                }
                guard hash == declared.hash else {
                    throw APIError(
                        .badRequest, .digestMismatch,
                        "the file's SHA-256 is \(hash), not the \(declared.hash) its Repr-Digest declares; nothing was stored"
                    )
                }
            }
            let (hash, size, _) = meter.result()
            return (hash, size, declared.format)
        }
        let staged = try await blobs.stage(chunks)
        let (hash, size, head) = meter.result()
        let format: ModelFormat
        do {
            format = try Self.format(of: head)
        } catch {
            await blobs.discard(staged)
            throw error
        }
        try await blobs.commit(staged, as: Self.modelKey(hash, format))
        return (hash, size, format)
    }

    /// The format of an upload starting with `head`.
    /// - Throws: ``APIError`` `415` for a file that is neither GLB nor USDZ.
    private static func format(of head: [UInt8]) throws -> ModelFormat {
        guard let format = ModelFormat.detect(head), format == .glb || format == .usdz else {
            throw APIError(.unsupportedMediaType, .unsupportedModel, "upload a GLB (binary glTF) or a USDZ file")
        }
        return format
    }

    /// The model of `asset` in `format`: its upload (the bytes checked against the content hash), or
    /// the conversion made from it.
    /// - Throws: ``ModelError`` for a file missing, damaged or unreadable; ``BlobStoreError``.
    func model(of asset: Asset, in format: ModelFormat) async throws -> Model {
        let upload = asset.format == format.rawValue
        return try ModelFile.read(try await storedBytes(hash: asset.contentHash, format: format, checked: upload))
    }

    /// The stored model with `hash` in `format`; `checked`, for the upload itself (a conversion's
    /// bytes hash to something else): a blob whose bytes do not hash to its name is damaged.
    private func storedBytes(hash: String, format: ModelFormat, checked: Bool) async throws -> [UInt8] {
        guard let buffer = try await blobs.read(Self.modelKey(hash, format)) else {
            throw ModelError(.unsupported, "the stored file \(Self.modelKey(hash, format)) is missing")
        }
        let bytes = Array(buffer.readableBytesView)
        guard !checked || Digest.sha256Hex(bytes) == hash else {
            throw ModelError(
                .unsupported, "the stored file \(Self.modelKey(hash, format)) is damaged: its SHA-256 differs")
        }
        return bytes
    }

    /// Deletes the files of every content hash no asset refers to any more (after purges), and
    /// uploads left half-way. Files written in the last hour are kept: an upload is stored a moment
    /// before its record is.
    func removeUnused(keeping hashes: Set<String>, now: Date = Date()) async throws -> Int {
        var removed = 0
        for blob in try await blobs.list() where now.timeIntervalSince(blob.modified) > 3_600 {
            let unused: Bool
            if blob.key.hasPrefix(StagedBlob.prefix) {
                unused = true
            } else if let hash = Self.contentHash(of: blob.key) {
                unused = !hashes.contains(hash)
            } else {
                unused = false
            }
            guard unused else { continue }
            if (try? await blobs.delete(blob.key)) != nil { removed += 1 }
        }
        return removed
    }

    // MARK: Processing

    /// Queues an asset for processing, unless it is queued already.
    func process(projectID: String, asset: Asset) {
        if pending.insert(asset.id) { enqueue.yield((projectID, asset)) }
    }

    /// How often processing an asset may start before it counts as one that stops the server: its
    /// processing started and never ended, that many times.
    static let attemptsAllowed = 2

    /// Processes queued assets one at a time until the server stops; at start, the assets a stopped
    /// server left unfinished are queued again, unless their processing already started
    /// ``attemptsAllowed`` times without ending (it took the server down): those are marked failed.
    func run() async throws {
        do { try await blobs.prepare() } catch { logger.warning("the blob store is not ready yet: \(error)") }
        for (projectID, asset, attempts) in (try? await store.unfinishedAssets()) ?? [] {
            guard attempts < Self.attemptsAllowed else {
                logger.warning("asset \(asset.id): processing started \(attempts) times and never ended; marked failed")
                try? await store.finishAsset(
                    id: asset.id, status: .failed, summary: nil,
                    failure: "processing this file stopped the server \(attempts) times; it is not tried again")
                continue
            }
            process(projectID: projectID, asset: asset)
        }
        await cancelWhenGracefulShutdown { [self] in
            for await (projectID, asset) in queue {
                if Task.isCancelled { break }
                await finish(asset, projectID: projectID)
                pending.remove(asset.id)
            }
        }
    }

    /// Makes the summary, thumbnails and the other format of an asset, and records the outcome. A
    /// server stopping meanwhile stops the work between its steps; the asset stays `processing` and
    /// is taken up again at the next start. While the blob store cannot be reached, the asset is
    /// tried again after ``retryPause``; while it is full, at the next start.
    func finish(_ asset: Asset, projectID: String) async {
        let stop = StopFlag()
        // Counted before the work and taken back only when a stopping server interrupts it, so a
        // file that kills the process mid-way is seen at the next start.
        _ = try? await store.countAssetAttempt(id: asset.id)
        let outcome = await withTaskCancellationHandler { () async -> Result<String, any Error> in
            do { return .success(try await self.make(asset, stop: stop)) } catch { return .failure(error) }
        } onCancel: {
            stop.raise()
        }
        if stop.isRaised {
            _ = try? await store.countAssetAttempt(id: asset.id, by: -1)
            return
        }
        do {
            switch outcome {
            case .success(let summary):
                try await store.finishAsset(id: asset.id, status: .ready, summary: summary, failure: nil)
            case .failure(let error as BlobStoreError) where error.kind == .unavailable:
                logger.warning("asset \(asset.id): \(error); tried again in \(retryPause)")
                _ = try? await store.countAssetAttempt(id: asset.id, by: -1)
                retry(projectID: projectID, asset: asset)
            case .failure(let error as BlobStoreError) where error.kind == .full:
                // Left `processing`: taken up again at the next start.
                logger.error("asset \(asset.id): \(error); its files are made once there is room")
                _ = try? await store.countAssetAttempt(id: asset.id, by: -1)
            case .failure(let error):
                logger.info("asset \(asset.id) could not be read: \(error)")
                try await store.finishAsset(id: asset.id, status: .failed, summary: nil, failure: "\(error)")
            }
        } catch {
            logger.error("asset \(asset.id): recording the outcome failed: \(error)")
        }
    }

    /// Queues an asset again after ``retryPause`` (unless the server stops first).
    private func retry(projectID: String, asset: Asset) {
        Task { [self] in
            try await Task.sleep(for: retryPause)
            enqueue.yield((projectID, asset))
        }
    }

    /// Reads the upload, writes what is missing of its thumbnails and conversion, returns the summary JSON.
    private func make(_ asset: Asset, stop: StopFlag) async throws -> String {
        guard let format = ModelFormat(rawValue: asset.format) else {
            throw ModelError(.unsupported, "the stored format \(asset.format) is not a model format")
        }
        let hash = asset.contentHash
        let bytes = try await storedBytes(hash: hash, format: format, checked: true)
        let other: ModelFormat = format == .glb ? .usdz : .glb
        let wanted = Made(
            conversion: try await blobs.size(of: Self.modelKey(hash, other)) == nil ? other : nil,
            thumbnails: try await Self.thumbnailSizes.asyncFilter {
                try await self.blobs.size(of: Self.thumbnailKey(hash, size: $0)) == nil
            })
        // CPU-heavy: on a thread of its own, so the server's tasks keep answering.
        let made = try await OwnThread.run("asset work") {
            Result { try Self.render(wanted, from: bytes, stop: stop) }
        }.get()
        try stop.check()
        if let conversion = made.conversion {
            try await blobs.write(
                Self.modelKey(hash, other), ByteBuffer(bytes: conversion), contentType: other.mediaType)
        }
        for (size, png) in made.thumbnails {
            try await blobs.write(Self.thumbnailKey(hash, size: size), ByteBuffer(bytes: png), contentType: "image/png")
        }
        return made.summary
    }

    /// What processing is to make: the conversion to a format, the thumbnails of some sizes.
    private struct Made: Sendable {
        var conversion: ModelFormat?
        var thumbnails: [Int]
    }

    /// The files made from a model's bytes, and its summary JSON.
    private struct Output: Sendable {
        var conversion: [UInt8]?
        var thumbnails: [(Int, [UInt8])]
        var summary: String
    }

    private static func render(_ wanted: Made, from bytes: [UInt8], stop: StopFlag) throws -> Output {
        var warnings: [String] = []
        let model = try ModelFile.read(bytes, warnings: &warnings)
        try stop.check()
        var output = Output(conversion: nil, thumbnails: [], summary: "")
        if let format = wanted.conversion {
            output.conversion = try ModelFile.write(model.composingTextures(warnings: &warnings), as: format)
        }
        var report = ModelInspection(model)
        report.warnings = warnings + report.warnings
        for size in wanted.thumbnails {
            try stop.check()
            output.thumbnails.append((size, try ThumbnailRenderer(size: size).png(of: model)))
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        output.summary = String(decoding: try encoder.encode(report), as: UTF8.self)
        return output
    }
}

/// An upload's bytes as they pass: counted against a limit, hashed, the first ones kept to tell the
/// format. Used by one upload at a time, in order.
final class UploadMeter: @unchecked Sendable {
    private let limit: Int
    private let quota: (left: Int, refusal: @Sendable (Int) -> APIError)
    private var hasher = Digest.Hasher()
    private var size = 0
    private var head: [UInt8] = []

    /// - Parameters:
    ///   - limit: the largest upload.
    ///   - quota: what the project's quota leaves, and the refusal of an upload of more.
    init(limit: Int, quota: (left: Int, refusal: @Sendable (Int) -> APIError)) {
        self.limit = limit
        self.quota = quota
    }

    /// Counts and hashes `buffer`, then passes it on.
    /// - Throws: ``APIError`` `413` once past the limit, the quota's refusal (`403`) once past what it leaves.
    func take(_ buffer: ByteBuffer) throws -> ByteBuffer {
        size += buffer.readableBytes
        guard size <= limit else { throw AssetRoutes.tooLarge(limit) }
        guard size <= quota.left else { throw quota.refusal(size) }
        buffer.withUnsafeReadableBytes { bytes in
            hasher.update(data: bytes)
            if head.count < 8 { head += bytes.prefix(8 - head.count) }
        }
        return buffer
    }

    /// The SHA-256 in hex, the size and the first bytes of everything taken.
    func result() -> (hash: String, size: Int, head: [UInt8]) {
        (Digest.hex(hasher.finalize()), size, head)
    }
}

extension Sequence {
    /// The elements for which `isIncluded` holds, in order, awaiting each test.
    fileprivate func asyncFilter(_ isIncluded: (Element) async throws -> Bool) async rethrows -> [Element] {
        var kept: [Element] = []
        for element in self where try await isIncluded(element) { kept.append(element) }
        return kept
    }
}

/// Identifiers under a lock.
final class PendingSet: Sendable {
    private let members = Locked(Set<String>())

    /// Adds `id`; returns whether it was absent.
    func insert(_ id: String) -> Bool { members.withLock { $0.insert(id).inserted } }

    func remove(_ id: String) { members.withLock { _ = $0.remove(id) } }
}

/// A flag one thread raises and another checks: how a stopping server reaches work on a thread of its own.
final class StopFlag: Sendable {
    private let raised = Locked(false)

    func raise() { raised.value = true }

    var isRaised: Bool { raised.value }

    /// Throws `CancellationError` once raised.
    func check() throws {
        if isRaised { throw CancellationError() }
    }
}
