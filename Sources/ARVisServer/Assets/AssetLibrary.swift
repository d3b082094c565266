import ARVisGraphics
import ARVisModel
import ARVisStore
import ARVisSupport
import Crypto
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle

/// The gallery's files and the work done on them: uploads streamed to disk under their SHA-256,
/// then, one asset at a time, the model read, summarised, drawn at 360 and 1024 pixels and written
/// in the other format (GLB ⇄ USDZ). Each made file is written once per content hash.
///
/// Layout under ``ServerConfiguration/assetDirectory``: `ab/abcdef….glb` (an upload or a
/// conversion), `ab/abcdef…-360.png`, `ab/abcdef…-1024.png`, and `incoming/` for uploads in flight.
final class AssetLibrary: Service, Sendable {
    let root: URL
    let store: Store
    let logger: Logger
    private let queue: AsyncStream<(projectID: String, asset: Asset)>
    private let enqueue: AsyncStream<(projectID: String, asset: Asset)>.Continuation
    /// The assets queued or being processed, so one is never queued twice.
    private let pending = PendingSet()

    /// The thumbnail sizes made for every asset.
    static let thumbnailSizes = [360, 1024]

    init(directory: String, store: Store, logger: Logger) {
        root = URL(fileURLWithPath: directory, isDirectory: true)
        self.store = store
        self.logger = logger
        (queue, enqueue) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
    }

    // MARK: Files

    /// Where the model with `hash` is kept in `format` (the upload, or its conversion).
    func modelPath(_ hash: String, _ format: ModelFormat) -> String {
        folder(hash).appendingPathComponent("\(hash).\(format.rawValue)").path
    }

    /// Where the thumbnail of `size` pixels of the model with `hash` is kept.
    func thumbnailPath(_ hash: String, size: Int) -> String {
        folder(hash).appendingPathComponent("\(hash)-\(size).png").path
    }

    private func folder(_ hash: String) -> URL {
        root.appendingPathComponent(String(hash.prefix(2)), isDirectory: true)
    }

    /// Streams an upload to disk: at most `limit` bytes, hashed as it arrives, never held whole in
    /// memory. The file's format is told by its first bytes.
    /// - Returns: its SHA-256 in hex, its size and format.
    /// - Throws: ``APIError`` `413` past `limit`, `415` for a file that is neither GLB nor USDZ.
    func receive(_ body: some AsyncSequence<ByteBuffer, any Error>, limit: Int) async throws -> (
        hash: String, size: Int, format: ModelFormat
    ) {
        let incoming = root.appendingPathComponent("incoming", isDirectory: true)
        try FileManager.default.createDirectory(at: incoming, withIntermediateDirectories: true)
        let temporary = incoming.appendingPathComponent(UUID().uuidString)
        guard FileManager.default.createFile(atPath: temporary.path, contents: nil),
            let handle = FileHandle(forWritingAtPath: temporary.path)
        else {
            throw APIError(.internalServerError, "storageFailed", "the upload could not be stored")
        }
        var hasher = Digest.Hasher()
        var size = 0
        var head: [UInt8] = []
        do {
            defer { try? handle.close() }
            for try await buffer in body {
                size += buffer.readableBytes
                guard size <= limit else { throw AssetRoutes.tooLarge(limit) }
                try buffer.withUnsafeReadableBytes { bytes in
                    hasher.update(data: bytes)
                    if head.count < 8 { head += bytes.prefix(8 - head.count) }
                    try handle.write(contentsOf: bytes)
                }
            }
            try handle.synchronize()
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
        guard let format = ModelFormat.detect(head), format == .glb || format == .usdz else {
            try? FileManager.default.removeItem(at: temporary)
            throw APIError(.unsupportedMediaType, "unsupportedModel", "upload a GLB (binary glTF) or a USDZ file")
        }
        let hash = Digest.hex(hasher.finalize())
        let target = modelPath(hash, format)
        do {
            try FileManager.default.createDirectory(at: folder(hash), withIntermediateDirectories: true)
            if FileManager.default.fileExists(atPath: target) {
                try FileManager.default.removeItem(at: temporary)
            } else {
                try FileManager.default.moveItem(at: temporary, to: URL(fileURLWithPath: target))
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw APIError(
                .internalServerError, "storageFailed", "the upload could not be stored: \(error.localizedDescription)")
        }
        return (hash, size, format)
    }

    /// Deletes the files of every content hash no asset refers to any more (after purges). Files
    /// written in the last hour are kept: an upload is stored a moment before its record is.
    func removeUnused(keeping hashes: Set<String>, now: Date = Date()) -> Int {
        var removed = 0
        let manager = FileManager.default
        for folder in (try? manager.contentsOfDirectory(atPath: root.path)) ?? [] where folder.count == 2 {
            let path = root.appendingPathComponent(folder).path
            for file in (try? manager.contentsOfDirectory(atPath: path)) ?? [] {
                let hash = String(file.prefix { $0 != "." && $0 != "-" })
                let file = (path as NSString).appendingPathComponent(file)
                guard hash.count == 64, !hashes.contains(hash),
                    let modified = (try? manager.attributesOfItem(atPath: file))?[.modificationDate] as? Date,
                    now.timeIntervalSince(modified) > 3_600
                else { continue }
                if (try? manager.removeItem(atPath: file)) != nil { removed += 1 }
            }
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
            for await (_, asset) in queue {
                if Task.isCancelled { break }
                await finish(asset)
                pending.remove(asset.id)
            }
        }
    }

    /// Makes the summary, thumbnails and the other format of an asset, and records the outcome. A
    /// server stopping meanwhile stops the work between its steps; the asset stays `processing` and
    /// is taken up again at the next start.
    func finish(_ asset: Asset) async {
        let stop = StopFlag()
        // Counted before the work and taken back only when a stopping server interrupts it, so a
        // file that kills the process mid-way is seen at the next start.
        _ = try? await store.countAssetAttempt(id: asset.id)
        let outcome = await withTaskCancellationHandler {
            await Self.offThread { [self] in Result { try self.make(asset, stop: stop) } }
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
            case .failure(let error):
                logger.info("asset \(asset.id) could not be read: \(error)")
                try await store.finishAsset(id: asset.id, status: .failed, summary: nil, failure: "\(error)")
            }
        } catch {
            logger.error("asset \(asset.id): recording the outcome failed: \(error)")
        }
    }

    /// The CPU-heavy work, on a thread of its own so the server's tasks keep answering.
    private static func offThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .utility).async { continuation.resume(returning: work()) }
        }
    }

    /// Reads the upload, writes what is missing of its thumbnails and conversion, returns the summary JSON.
    private func make(_ asset: Asset, stop: StopFlag) throws -> String {
        guard let format = ModelFormat(rawValue: asset.format) else {
            throw ModelError(.unsupported, "the stored format \(asset.format) is not a model format")
        }
        let bytes = [UInt8](
            try Data(contentsOf: URL(fileURLWithPath: modelPath(asset.contentHash, format)), options: .alwaysMapped))
        var warnings: [String] = []
        let model = try ModelFile.read(bytes, warnings: &warnings)
        let other: ModelFormat = format == .glb ? .usdz : .glb
        try stop.check()
        if !FileManager.default.fileExists(atPath: modelPath(asset.contentHash, other)) {
            let composed = model.composingTextures(warnings: &warnings)
            try Data(try ModelFile.write(composed, as: other)).write(
                to: URL(fileURLWithPath: modelPath(asset.contentHash, other)), options: .atomic)
        }
        var report = ModelInspection(model)
        report.warnings = warnings + report.warnings
        for size in Self.thumbnailSizes
        where !FileManager.default.fileExists(atPath: thumbnailPath(asset.contentHash, size: size)) {
            try stop.check()
            let png = try ThumbnailRenderer(size: size).png(of: model)
            try Data(png).write(
                to: URL(fileURLWithPath: thumbnailPath(asset.contentHash, size: size)), options: .atomic)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(report), as: UTF8.self)
    }
}

/// Identifiers under a lock.
final class PendingSet: @unchecked Sendable {
    private let lock = NSLock()
    private var members = Set<String>()

    /// Adds `id`; returns whether it was absent.
    func insert(_ id: String) -> Bool { lock.withLock { members.insert(id).inserted } }

    func remove(_ id: String) { lock.withLock { _ = members.remove(id) } }
}

/// A flag one thread raises and another checks: how a stopping server reaches work on a thread of its own.
final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var raised = false

    func raise() { lock.withLock { raised = true } }

    var isRaised: Bool { lock.withLock { raised } }

    /// Throws `CancellationError` once raised.
    func check() throws {
        if isRaised { throw CancellationError() }
    }
}
