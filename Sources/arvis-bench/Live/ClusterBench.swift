import ARVisSupport
import ArgumentParser
import Crypto
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// `arvis-bench cluster`: three `arvis serve` instances on one PostgreSQL and one S3 bucket.
struct ClusterBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cluster",
        abstract:
            "Three arvis serve instances on one PostgreSQL and one S3 bucket: edit → WebSocket clients spread over them, upload throughput to the bucket against --data, annotation latency under the pose load.",
        discussion: """
            Needs the release `arvis` beside this executable, a PostgreSQL and an S3 bucket, with \
            AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY set (BENCHMARKS.md starts a throwaway PostgreSQL \
            and SeaweedFS). Latencies are HDR-histogram percentiles over every delivery; throughputs are \
            medians.

            Example:
              AWS_ACCESS_KEY_ID=bench AWS_SECRET_ACCESS_KEY=bench-secret swift run -c release arvis-bench cluster \\
                --database postgres://postgres@127.0.0.1:55432/postgres --blob-store 's3://bench?endpoint=http://127.0.0.1:8333'
            """
    )

    @Option(help: "The PostgreSQL URL the three instances share.")
    var database: String

    @Option(name: .customLong("blob-store"), help: "The S3 bucket they share, s3://BUCKET?endpoint=URL&region=R.")
    var blobStore: String

    @Option(help: "WebSocket clients watching the spec, spread evenly over the instances.")
    var clients = 10_000

    @Option(help: "Edits, one every 200 ms, through each instance in turn.")
    var edits = 20

    @Option(help: "Megabytes of each uploaded model.")
    var uploadMegabytes = 100

    @Option(help: "Uploads to each store (the median counts).")
    var uploads = 3

    @Option(help: "Rooms, each with one publisher at 60 Hz.")
    var publishers = 10

    @Option(help: "Viewers per room.")
    var viewers = 100

    @Option(help: "Taps per room in the annotation run (5 a second, poses streaming).")
    var taps = 20

    func validate() throws {
        guard
            [clients, edits, uploadMegabytes, uploads, publishers, viewers, taps].allSatisfy({
                (1...100_000).contains($0)
            })
        else { throw ValidationError("counts are 1 to 100 000") }
        guard ProcessInfo.processInfo.environment["AWS_ACCESS_KEY_ID"] != nil else {
            throw ValidationError("set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY for the bucket")
        }
    }

    func run() async throws {
        Self.raiseOpenFileLimit()
        let binary = try ServerProcess.arvisBinary()
        var instances: [ServerProcess] = []
        defer { for instance in instances { instance.stop() } }
        for _ in 0..<3 {
            instances.append(
                try await ServerProcess.start(
                    binary: binary, database: database, arguments: ["--blob-store", blobStore]))
        }
        print(
            "three arvis serve instances on PostgreSQL and \(blobStore), \(ProcessInfo.processInfo.activeProcessorCount) cores"
        )
        let session = try await BenchSession.prepare(instances[0].base)

        let idle = instances.map { $0.residentKilobytes() }
        var held: [Int] = []
        let edit = try await LiveBench.editToDevice(
            session, clients: clients, edits: edits, writers: instances, watched: instances
        ) { held = instances.map { $0.residentKilobytes() } }
        let perClient = Double(zip(held, idle).map { $0 - $1 }.reduce(0, +)) / Double(clients)
        print(
            "resident memory of the instances: \(idle.map { $0 / 1024 }) MB before the clients, \(held.map { $0 / 1024 }) MB holding them"
        )
        print(String(format: "RESULT cluster_memory_per_client %.1f KB", perClient))
        print(String(format: "RESULT cluster_edit_to_device_p50 %.2f ms", edit.milliseconds(50)))
        print(String(format: "RESULT cluster_edit_to_device_p99 %.2f ms", edit.milliseconds(99)))

        let folder = try await ServerProcess.start(binary: binary, database: nil)
        defer { folder.stop() }
        let folderToken = try await ServeBench.prepare(folder.base)
        let toBucket = try await uploadRate(to: instances[0], token: session.token, declaring: true)
        let toBucketUndeclared = try await uploadRate(to: instances[0], token: session.token, declaring: false)
        let toFolder = try await uploadRate(to: folder, token: folderToken, declaring: true)
        print(
            String(
                format: "upload of %d MB: to the bucket %.1f MB/s, to --data %.1f MB/s (medians of %d)",
                uploadMegabytes, toBucket, toFolder, uploads))
        print(
            String(
                format: "the same to the bucket without Repr-Digest (staged, then copied to its hash): %.1f MB/s",
                toBucketUndeclared))
        print(String(format: "RESULT cluster_upload_bucket_mb_per_s %.1f MB/s", toBucket))
        print(String(format: "RESULT cluster_upload_bucket_undeclared_mb_per_s %.1f MB/s", toBucketUndeclared))
        print(String(format: "RESULT cluster_upload_folder_mb_per_s %.1f MB/s", toFolder))
        print(String(format: "RESULT cluster_upload_bucket_vs_folder %.2f x", toBucket / toFolder))
        print(
            String(format: "RESULT cluster_upload_bucket_undeclared_vs_folder %.2f x", toBucketUndeclared / toFolder))

        let rooms = try await RoomLoad.start(session, server: instances[0], rooms: publishers, viewers: viewers)
        _ = try await rooms.measurePoses(for: 3)
        let annotations = try await rooms.measureTaps(taps)
        await rooms.stop()
        print(String(format: "RESULT cluster_annotation_p50 %.2f ms", annotations.milliseconds(50)))
        print(String(format: "RESULT cluster_annotation_p99 %.2f ms", annotations.milliseconds(99)))
    }

    /// The median upload rate to `server` in MB/s, each upload a model of its own (so none is found
    /// stored already), each processed before the next starts; `declaring` its SHA-256 in
    /// `Repr-Digest` (worked out before the clock starts, as a client that knows its file would).
    private func uploadRate(to server: ServerProcess, token: String, declaring: Bool) async throws -> Double {
        var rates: [Double] = []
        for _ in 0..<uploads {
            let body = Self.paddedGLB(megabytes: uploadMegabytes)
            let digest =
                declaring ? ["Repr-Digest": "sha-256=:\(Data(SHA256.hash(data: body)).base64EncodedString()):"] : [:]
            let start = ContinuousClock.now
            let answer = try await ServeBench.send(
                "POST", server.base + "/api/v1/projects/bench/assets?name=Upload", body: body, token: token,
                type: "model/gltf-binary", headers: digest)
            let seconds = (ContinuousClock.now - start).seconds
            rates.append(Double(body.count) / 1_000_000 / seconds)
            guard let id = try JSONDecoder().decode(JSONValue.self, from: answer)["id"]?.string else {
                throw ValidationError("the upload was not answered with an asset")
            }
            _ = try await UploadBench.processed(id, on: server.base, token: token)
        }
        return rates.sorted()[rates.count / 2]
    }

    /// A valid GLB of `megabytes`: one triangle, and a buffer of random bytes no accessor reads.
    static func paddedGLB(megabytes: Int) -> Data {
        let triangle: [Float] = [0, 0, 0, 1, 0, 0, 0, 1, 0]
        let length = max(36, megabytes * 1_000_000 - 1_024) / 4 * 4
        var json = """
            {"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[0]}],"nodes":[{"mesh":0}],\
            "meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],"accessors":[{"bufferView":0,\
            "componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[1,1,0]}],\
            "bufferViews":[{"buffer":0,"byteLength":36}],"buffers":[{"byteLength":\(length)}]}
            """
        while json.utf8.count % 4 != 0 { json += " " }
        var data = Data()
        func append(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        append(0x4654_6C67)
        append(2)
        append(UInt32(12 + 8 + json.utf8.count + 8 + length))
        append(UInt32(json.utf8.count))
        append(0x4E4F_534A)
        data.append(contentsOf: json.utf8)
        append(UInt32(length))
        append(0x004E_4942)
        for value in triangle { withUnsafeBytes(of: value.bitPattern.littleEndian) { data.append(contentsOf: $0) } }
        var generator = SystemRandomNumberGenerator()
        var padding = [UInt8](repeating: 0, count: length - 36)
        padding.withUnsafeMutableBytes { bytes in
            var index = 0
            while index + 8 <= bytes.count {
                bytes.storeBytes(of: generator.next() as UInt64, toByteOffset: index, as: UInt64.self)
                index += 8
            }
        }
        data.append(contentsOf: padding)
        return data
    }

    /// As many open files as the hard limit allows: ten thousand sockets here, and theirs in the servers.
    static func raiseOpenFileLimit() {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
}

extension Duration {
    /// In seconds, as a `Double`.
    fileprivate var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
