import Foundation
import Hummingbird
import NIOCore

/// Blobs as files in a folder (`--data`'s `assets/`), each key a relative path; staged blobs under
/// `incoming/`, moved into place when committed, so a reader never sees a half-written file.
struct FolderBlobStore: BlobStore {
    /// The folder.
    let root: URL

    init(root: URL) { self.root = root }

    func url(_ key: String) -> URL { root.appendingPathComponent(key) }

    func stage(_ chunks: some AsyncSequence<ByteBuffer, any Error>) async throws -> StagedBlob {
        let staged = StagedBlob.make()
        let file = url(staged.name)
        try Self.storing {
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
                throw CocoaError(.fileWriteUnknown)
            }
        }
        do {
            let handle = try FileHandle(forWritingTo: file)
            defer { try? handle.close() }
            for try await buffer in chunks {
                try Self.storing { try buffer.withUnsafeReadableBytes { try handle.write(contentsOf: $0) } }
            }
            try Self.storing { try handle.synchronize() }
        } catch {
            try? FileManager.default.removeItem(at: file)
            throw error
        }
        return staged
    }

    func commit(_ staged: StagedBlob, as key: String) async throws {
        let target = url(key)
        do {
            try Self.storing {
                try FileManager.default.createDirectory(
                    at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                if FileManager.default.fileExists(atPath: target.path) {
                    try FileManager.default.removeItem(at: url(staged.name))
                } else {
                    try FileManager.default.moveItem(at: url(staged.name), to: target)
                }
            }
        } catch {
            await discard(staged)
            throw error
        }
    }

    func discard(_ staged: StagedBlob) async {
        try? FileManager.default.removeItem(at: url(staged.name))
    }

    func size(of key: String) async throws -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: url(key).path))?[.size] as? Int
    }

    func read(_ key: String) async throws -> ByteBuffer? {
        guard FileManager.default.fileExists(atPath: url(key).path) else { return nil }
        let data = try Self.storing { try Data(contentsOf: url(key), options: .alwaysMapped) }
        return ByteBuffer(bytes: data)
    }

    func write(_ key: String, _ bytes: ByteBuffer, contentType: String) async throws {
        try Self.storing {
            try FileManager.default.createDirectory(
                at: url(key).deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes.readableBytesView).write(to: url(key), options: .atomic)
        }
    }

    func body(_ key: String, range: ClosedRange<Int>?, length: Int, context: ServerContext) async throws
        -> ResponseBody
    {
        let files = FileIO()
        guard let range else { return try await files.loadFile(path: url(key).path, context: context) }
        return try await files.loadFile(path: url(key).path, range: range, context: context)
    }

    func delete(_ key: String) async throws {
        guard FileManager.default.fileExists(atPath: url(key).path) else { return }
        try Self.storing { try FileManager.default.removeItem(at: url(key)) }
    }

    func list() async throws -> [BlobListing] {
        let manager = FileManager.default
        var found: [BlobListing] = []
        for folder in (try? manager.contentsOfDirectory(atPath: root.path)) ?? [] {
            for name in (try? manager.contentsOfDirectory(atPath: url(folder).path)) ?? [] {
                let key = folder + "/" + name
                guard let attributes = try? manager.attributesOfItem(atPath: url(key).path),
                    attributes[.type] as? FileAttributeType == .typeRegular
                else { continue }
                found.append(
                    BlobListing(
                        key: key, size: attributes[.size] as? Int ?? 0,
                        modified: attributes[.modificationDate] as? Date ?? Date()))
            }
        }
        return found
    }

    func prepare() async throws {
        try Self.storing {
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        }
    }

    func checkReady() async throws {
        try await prepare()
        guard FileManager.default.isWritableFile(atPath: root.path) else {
            throw BlobStoreError(.failed, "the folder \(root.path) cannot be written")
        }
    }

    /// Runs file work, reporting a full disk as ``BlobStoreError/Kind/full`` and other failures as
    /// ``BlobStoreError/Kind/failed``.
    static func storing<T>(_ work: () throws -> T) throws -> T {
        do {
            return try work()
        } catch let error as BlobStoreError {
            throw error
        } catch {
            if isOutOfSpace(error) { throw BlobStoreError(.full, "the disk is full") }
            throw BlobStoreError(.failed, "a file could not be stored: \(error.localizedDescription)")
        }
    }

    /// Whether `error` (or one it wraps) says the disk or the quota is full.
    static func isOutOfSpace(_ error: any Error) -> Bool {
        let error = error as NSError
        if error.domain == NSPOSIXErrorDomain, error.code == Int(ENOSPC) || error.code == Int(EDQUOT) { return true }
        if error.domain == NSCocoaErrorDomain, error.code == CocoaError.fileWriteOutOfSpace.rawValue { return true }
        guard let underlying = error.userInfo[NSUnderlyingErrorKey] as? any Error else { return false }
        return isOutOfSpace(underlying)
    }
}
