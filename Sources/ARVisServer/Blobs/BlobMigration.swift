import Foundation
import NIOCore

/// `arvis admin migrate-blobs`: copies the gallery's files from a `--data` folder into the bucket of
/// `--blob-store`, so instances started with that bucket serve them; each file's SHA-256 is checked
/// before it is sent and again on the copy read back from the bucket.
public enum BlobMigration {
    /// What a migration did.
    public struct Report: Sendable, Equatable {
        /// Files sent to the bucket.
        public var copied = 0
        /// Files the bucket already held with the same bytes.
        public var present = 0
        /// The bytes sent.
        public var bytes = 0
        /// Files not copied or whose copy differs, one sentence each.
        public var problems: [String] = []
    }

    /// Copies every file under `dataDirectory`'s gallery folder into the bucket `blobStore`
    /// (`s3://BUCKET?endpoint=URL&region=R`, credentials from `environment`, the process's when
    /// `nil`); `progress` hears the key of each file done.
    /// - Throws: when the bucket cannot be used at all; a file that fails is a problem in the report.
    public static func run(
        dataDirectory: String, blobStore: String,
        environment: [String: String]? = nil, progress: (String) -> Void = { _ in }
    ) async throws -> Report {
        var configuration = ServerConfiguration(dataDirectory: dataDirectory)
        let source = FolderBlobStore(root: URL(fileURLWithPath: configuration.assetDirectory, isDirectory: true))
        guard FileManager.default.fileExists(atPath: source.root.path) else {
            throw BlobStoreError(.failed, "\(source.root.path) does not exist: no gallery files to copy")
        }
        configuration.blobStore = blobStore
        let credentials = environment ?? ProcessInfo.processInfo.environment
        guard let bucket = try ARVisServer.blobStore(configuration, environment: credentials) as? S3BlobStore else {
            throw BlobStoreError(.failed, "--blob-store must name an S3 bucket")
        }
        // Nothing kept in memory: every check reads what the bucket holds.
        let target = S3BlobStore(client: bucket.client, cache: BlobCache(capacity: 0, largest: 0))
        try await target.prepare()
        var report = Report()
        let files = try await source.list().filter { !$0.key.hasPrefix(StagedBlob.prefix) }
        for file in files.sorted(by: { $0.key < $1.key }) {
            do {
                try await copy(file.key, from: source, to: target, report: &report)
                progress(file.key)
            } catch {
                report.problems.append("\(file.key): \(error)")
            }
        }
        return report
    }

    private static func copy(_ key: String, from source: FolderBlobStore, to target: S3BlobStore, report: inout Report)
        async throws
    {
        guard let bytes = try await source.read(key) else { return }
        let hash = Digest.sha256Hex(Array(bytes.readableBytesView))
        if let named = AssetLibrary.contentHash(of: key), !key.contains("-"), named != hash {
            throw BlobStoreError(
                .failed, "damaged: its SHA-256 is \(hash), not the \(named) it is named by; not copied")
        }
        if try await target.size(of: key) == bytes.readableBytes, try await hashInBucket(key, of: target) == hash {
            report.present += 1
            return
        }
        try await target.write(key, bytes, contentType: "application/octet-stream")
        guard try await hashInBucket(key, of: target) == hash else {
            throw BlobStoreError(.failed, "the copy in the bucket differs from the file")
        }
        report.copied += 1
        report.bytes += bytes.readableBytes
    }

    private static func hashInBucket(_ key: String, of target: S3BlobStore) async throws -> String? {
        try await target.read(key).map { Digest.sha256Hex(Array($0.readableBytesView)) }
    }
}
