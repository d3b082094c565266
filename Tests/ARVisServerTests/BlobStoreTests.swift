import ARVisModel
import ARVisStore
import ARVisTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOConcurrencyHelpers
import NIOCore
import Prometheus
import Testing

@testable import ARVisServer

/// Where the gallery's files are kept: the folder and S3 stores behave alike (staged blobs unseen
/// until committed, one blob per key), the S3 one against a real SeaweedFS, and a server on it.
struct BlobStoreTests: ServerTesting {
    let scratch = ScratchFolder("server-blobs")

    private func chunks(_ parts: [String]) -> AsyncThrowingStream<ByteBuffer, any Error> {
        AsyncThrowingStream { continuation in
            for part in parts { continuation.yield(ByteBuffer(string: part)) }
            continuation.finish()
        }
    }

    /// The behaviour every store shares.
    private func exercise(_ blobs: any BlobStore) async throws {
        try await blobs.prepare()
        let staged = try await blobs.stage(chunks(["hello, ", "blob"]))
        #expect(staged.name.hasPrefix("incoming/"))
        #expect(try await blobs.size(of: "ab/hello.bin") == nil)
        try await blobs.commit(staged, as: "ab/hello.bin")
        #expect(try await blobs.size(of: "ab/hello.bin") == 11)
        #expect(try await blobs.read("ab/hello.bin").map { String(buffer: $0) } == "hello, blob")
        // The same key committed again keeps one blob, and drops the staged copy.
        try await blobs.commit(try await blobs.stage(chunks(["hello, blob"])), as: "ab/hello.bin")
        var keys = try await blobs.list().map(\.key)
        #expect(keys.filter { $0 == "ab/hello.bin" }.count == 1 && !keys.contains { $0.hasPrefix("incoming/") })
        // A source that fails leaves nothing.
        struct Broken: Error {}
        let failing = AsyncThrowingStream<ByteBuffer, any Error> { continuation in
            continuation.yield(ByteBuffer(string: "half"))
            continuation.finish(throwing: Broken())
        }
        await #expect(throws: Broken.self) { _ = try await blobs.stage(failing) }
        keys = try await blobs.list().map(\.key)
        #expect(!keys.contains { $0.hasPrefix("incoming/") })
        // A blob whose key is known first: kept when its check passes, not at all when it fails; the
        // same key stored again keeps the blob.
        struct Refused: Error {}
        try await blobs.store(chunks(["known ", "key"]), as: "ef/known.bin") {}
        #expect(try await blobs.read("ef/known.bin").map { String(buffer: $0) } == "known key")
        await #expect(throws: Refused.self) {
            try await blobs.store(self.chunks(["not ", "kept"]), as: "ef/refused.bin") { throw Refused() }
        }
        await #expect(throws: Refused.self) {
            try await blobs.store(self.chunks(["other"]), as: "ef/known.bin") { throw Refused() }
        }
        try await blobs.store(chunks(["known key"]), as: "ef/known.bin") {}
        keys = try await blobs.list().map(\.key)
        #expect(!keys.contains("ef/refused.bin") && !keys.contains { $0.hasPrefix("incoming/") })
        #expect(try await blobs.read("ef/known.bin").map { String(buffer: $0) } == "known key")
        try await blobs.write("cd/made.png", ByteBuffer(string: "png"), contentType: "image/png")
        #expect(try await blobs.read("cd/made.png").map { String(buffer: $0) } == "png")
        try await blobs.delete("cd/made.png")
        try await blobs.delete("cd/made.png")
        #expect(try await blobs.read("cd/made.png") == nil)
        try await blobs.checkReady()
    }

    @Test func aFolderStoreKeepsBlobsAsFiles() async throws {
        let folder = try scratch.folder()
        let blobs = FolderBlobStore(root: folder)
        try await exercise(blobs)
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("ab/hello.bin").path))
    }

    @Test func aFullDiskIsToldApartFromOtherFailures() throws {
        let full = NSError(domain: NSPOSIXErrorDomain, code: Int(ENOSPC))
        #expect(FolderBlobStore.isOutOfSpace(full))
        #expect(
            FolderBlobStore.isOutOfSpace(
                NSError(domain: NSCocoaErrorDomain, code: 512, userInfo: [NSUnderlyingErrorKey: full])))
        #expect(!FolderBlobStore.isOutOfSpace(NSError(domain: NSPOSIXErrorDomain, code: Int(EACCES))))
        #expect(throws: BlobStoreError(.full, "the disk is full")) { try FolderBlobStore.storing { throw full } }
        #expect(APIError(BlobStoreError(.full, "x"))?.status.code == 507)
        let unavailable = try #require(APIError(BlobStoreError(.unavailable, "x")))
        #expect(unavailable.status == .serviceUnavailable && unavailable.headerFields[.retryAfter] == "10")
        #expect(APIError(BlobStoreError(.failed, "x")) == nil)
    }

    @Test func keysNameTheirContent() {
        let hash = String(repeating: "ab", count: 32)
        #expect(AssetLibrary.modelKey(hash, .glb) == "ab/\(hash).glb")
        #expect(AssetLibrary.thumbnailKey(hash, size: 360) == "ab/\(hash)-360.png")
        #expect(AssetLibrary.contentHash(of: "ab/\(hash).usdz") == hash)
        #expect(AssetLibrary.contentHash(of: "ab/\(hash)-1024.png") == hash)
        #expect(AssetLibrary.contentHash(of: "cd/\(hash).glb") == nil)
        #expect(AssetLibrary.contentHash(of: "incoming/\(hash)") == nil)
        #expect(AssetLibrary.contentHash(of: "ab/short.glb") == nil)
    }

    @Test func theCacheKeepsSmallBlobsUpToItsCapacity() {
        let cache = BlobCache(capacity: 10, largest: 4)
        cache.keep(ByteBuffer(string: "aaaa"), for: "a")
        cache.keep(ByteBuffer(string: "bbbb"), for: "b")
        _ = cache.bytes(of: "a")
        cache.keep(ByteBuffer(string: "cccc"), for: "c")
        // "b", used least recently, went; "a" and "c" stay.
        #expect(cache.bytes(of: "b") == nil && cache.bytes(of: "a") != nil && cache.bytes(of: "c") != nil)
        // Too large to keep, but its size is remembered.
        cache.keep(ByteBuffer(string: "too large"), for: "d")
        #expect(cache.bytes(of: "d") == nil && cache.size(of: "d") == 9)
        cache.forget("a")
        #expect(cache.bytes(of: "a") == nil && cache.size(of: "a") == nil)
    }

    @Test func anS3StoreKeepsBlobsAsObjects() async throws {
        guard let weed = try await SeaweedFS.start() else { return }
        defer { weed.stop() }
        let blobs = S3BlobStore(client: S3Client(weed.location, credentials: weed.credentials))
        try await exercise(blobs)
        var wrong = weed.credentials
        wrong.secretAccessKey = "not the secret"
        let refused = S3BlobStore(client: S3Client(weed.location, credentials: wrong))
        await #expect(throws: BlobStoreError.self) { try await refused.checkReady() }
        // Nothing answers there: unavailable, which the API answers with 503.
        let nowhere = S3Location(bucket: "arvis-test", endpoint: "http://127.0.0.1:9", region: "us-east-1")
        do {
            try await S3BlobStore(client: S3Client(nowhere, credentials: weed.credentials)).checkReady()
            Issue.record("a store nobody answers for is not ready")
        } catch let error as BlobStoreError {
            #expect(error.kind == .unavailable)
        }
    }

    @Test func aServerOnABucketServesUploadsWholeAndInRanges() async throws {
        guard let weed = try await SeaweedFS.start() else { return }
        defer { weed.stop() }
        let blobs = S3BlobStore(client: S3Client(weed.location, credentials: weed.credentials))
        var configuration = ServerConfiguration(dataDirectory: try scratch.folder().path, passwordCost: 4)
        configuration.idleTimeout = testIdleTimeout
        let store = try await Store.open(sqliteAt: configuration.databasePath)
        defer { Task { await store.close() } }
        let app = try ARVisServer.application(
            configuration, store: store, logger: .quiet, metrics: PrometheusCollectorRegistry(), drain: Drain(),
            blobs: blobs)
        let model = Self.cubeGLB
        try await app.test(.live) { client in
            let headers = try await signIn(client, "bucket")
            let slug = try await createProject(client, headers, name: "Bucket")
            var upload = headers
            upload[.contentType] = "model/gltf-binary"
            let created = try await client.execute(
                uri: "/api/v1/projects/\(slug)/assets?name=Cube", method: .post, headers: upload,
                body: ByteBuffer(bytes: model))
            #expect(created.status == .created)
            // A declared SHA-256 goes straight to its key, checked first: a wrong one keeps nothing.
            let other = Array(model.prefix(model.count - 4)) + Array("pad!".utf8)
            let reprDigest = try #require(HTTPField.Name.reprDigest)
            /// `other` uploaded with `digest` in Repr-Digest.
            func uploadOther(declaring digest: String) async throws -> TestResponse {
                var headers = upload
                headers[reprDigest] = digest
                return try await client.execute(
                    uri: "/api/v1/projects/\(slug)/assets?name=Other", method: .post, headers: headers,
                    body: ByteBuffer(bytes: other))
            }
            let mismatched = try await uploadOther(
                declaring: "sha-256=:\(Data(Digest.sha256(model)).base64EncodedString()):")
            #expect(mismatched.status == .badRequest)
            #expect((try object(mismatched)["error"] as? [String: Any])?["code"] as? String == "digestMismatch")
            #expect(try await blobs.size(of: AssetLibrary.modelKey(Digest.sha256Hex(other), .glb)) == nil)
            let declared = try await uploadOther(
                declaring: "sha-256=:\(Data(Digest.sha256(other)).base64EncodedString()):, sha-512=:AAAA:")
            #expect(declared.status == .created)
            #expect(try object(declared)["contentHash"] as? String == Digest.sha256Hex(other))
            #expect(
                try await blobs.read(AssetLibrary.modelKey(Digest.sha256Hex(other), .glb)).map {
                    Array($0.readableBytesView)
                } == other)
            #expect(try await uploadOther(declaring: "sha-256=:bm90IDMyIGJ5dGVz:").status == .badRequest)
            let id = try #require(try object(created)["id"] as? String)
            let base = "/api/v1/projects/\(slug)/assets/\(id)"
            var status = "processing"
            // Generous: a sanitized debug build (Scripts/sanitized_tests.sh) converts it several times slower.
            let deadline = ContinuousClock.now + .seconds(300)
            while status == "processing", ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(50))
                status =
                    try object(try await client.execute(uri: base, method: .get, headers: headers))["status"]
                    as? String ?? ""
            }
            #expect(status == "ready")
            let whole = try await client.execute(uri: base + "/model.glb", method: .get, headers: headers)
            #expect(whole.status == .ok && Array(whole.body.readableBytesView) == model)
            var ranged = headers
            ranged[.range] = "bytes=4-11"
            let part = try await client.execute(uri: base + "/model.glb", method: .get, headers: ranged)
            #expect(part.status == .partialContent && Array(part.body.readableBytesView) == Array(model[4...11]))
            #expect(part.headers[.contentRange] == "bytes 4-11/\(model.count)")
            let usdz = try await client.execute(uri: base + "/model.usdz", method: .get, headers: headers)
            #expect(usdz.status == .ok && usdz.body.readableBytesView.starts(with: [0x50, 0x4B]))
            let thumbnail = try await client.execute(
                uri: base + "/thumbnail.png?size=1024", method: .get, headers: headers)
            #expect(thumbnail.status == .ok && thumbnail.body.readableBytesView.starts(with: [0x89, 0x50, 0x4E, 0x47]))
            let ready = try await client.execute(uri: "/health/ready", method: .get)
            #expect(ready.status == .ok)
            #expect(try object(ready)["blobStore"] as? String == "s3")
        }
        let keys = try await blobs.list().map(\.key)
        let hash = Digest.sha256Hex(model)
        #expect(
            Set(keys.filter { $0.contains(hash) })
                == [
                    AssetLibrary.modelKey(hash, .glb), AssetLibrary.modelKey(hash, .usdz),
                    AssetLibrary.thumbnailKey(hash, size: 360), AssetLibrary.thumbnailKey(hash, size: 1024),
                ])
    }

    @Test func migrationCopiesAFolderIntoABucketCheckingEveryHash() async throws {
        guard let weed = try await SeaweedFS.start() else { return }
        defer { weed.stop() }
        let data = try scratch.folder()
        let configuration = ServerConfiguration(dataDirectory: data.path)
        let folder = FolderBlobStore(root: URL(fileURLWithPath: configuration.assetDirectory))
        let model = Self.cubeGLB
        let hash = Digest.sha256Hex(model)
        try await folder.write(AssetLibrary.modelKey(hash, .glb), ByteBuffer(bytes: model), contentType: "")
        try await folder.write(AssetLibrary.thumbnailKey(hash, size: 360), ByteBuffer(string: "png"), contentType: "")
        let damaged = String(repeating: "e", count: 64)
        try await folder.write(AssetLibrary.modelKey(damaged, .glb), ByteBuffer(string: "not it"), contentType: "")
        _ = try await folder.stage(chunks(["half an upload"]))
        let location = weed.location
        let url = "s3://\(location.bucket)?endpoint=\(location.endpoint)&region=\(location.region)"
        let environment = [
            "AWS_ACCESS_KEY_ID": weed.credentials.accessKeyID,
            "AWS_SECRET_ACCESS_KEY": weed.credentials.secretAccessKey,
        ]
        let first = try await BlobMigration.run(dataDirectory: data.path, blobStore: url, environment: environment)
        #expect(first.copied == 2 && first.present == 0 && first.bytes == model.count + 3)
        #expect(first.problems.count == 1 && first.problems[0].contains("damaged"))
        let bucket = S3BlobStore(client: S3Client(location, credentials: weed.credentials))
        #expect(try await bucket.read(AssetLibrary.modelKey(hash, .glb)).map { Array($0.readableBytesView) } == model)
        #expect(try await bucket.size(of: AssetLibrary.modelKey(damaged, .glb)) == nil)
        #expect(!(try await bucket.list()).contains { $0.key.hasPrefix("incoming/") })
        // Run again: everything is there already.
        let second = try await BlobMigration.run(dataDirectory: data.path, blobStore: url, environment: environment)
        #expect(second.copied == 0 && second.present == 2)
        await #expect(throws: BlobStoreError.self) {
            _ = try await BlobMigration.run(dataDirectory: data.path, blobStore: url, environment: [:])
        }
    }

    @Test func healthProbesAnswer() async throws {
        try await withServer { client in
            let live = try await client.execute(uri: "/health/live", method: .get)
            #expect(live.status == .ok)
            #expect(try object(live)["status"] as? String == "ok")
            let ready = try await client.execute(uri: "/health/ready", method: .get)
            #expect(ready.status == .ok)
            let body = try object(ready)
            #expect(body["database"] as? String == "sqlite" && body["blobStore"] as? String == "folder")
        }
    }

    @Test func aDrainClosesLiveConnectionsAndRefusesNewOnes() async throws {
        let drain = Drain()
        let closed = NIOLockedValueBox(0)
        let opened = AsyncStream<Void>.makeStream()
        let connection = Task {
            await drain.whileOpen(onDrain: { closed.withLockedValue { $0 += 1 } }) {
                opened.continuation.yield()
                while !Task.isCancelled, closed.withLockedValue({ $0 }) == 0 {
                    try? await Task.sleep(for: .milliseconds(5))
                }
            }
        }
        for await _ in opened.stream { break }
        #expect(drain.openCount == 1)
        try drain.admit()
        drain.begin()
        await drain.waitUntilClosed(within: .seconds(5))
        #expect(closed.withLockedValue { $0 } == 1 && drain.openCount == 0)
        await connection.value
        #expect(throws: APIError.self) { try drain.admit() }
        // A connection opening after the drain began is asked to close at once.
        await drain.whileOpen(onDrain: { closed.withLockedValue { $0 += 1 } }) {}
        #expect(closed.withLockedValue { $0 } == 2)
    }
}
