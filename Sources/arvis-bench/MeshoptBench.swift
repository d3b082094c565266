import ARVisModel
import ArgumentParser
import Foundation

extension ModelsBench {
    /// `EXT_meshopt_compression`: ARVis's decoders against the meshoptimizer library's on the same
    /// streams of a 1-million-triangle mesh (Benchmarks/meshopt_decode.py encodes them with the
    /// library and times its decoders): positions, octahedral normals and triangles.
    func meshopt() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("arvis-bench-meshopt-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = try PythonSide(
            python: python, script: "Benchmarks/meshopt_decode.py",
            arguments: [folder.path, "--triangles", String(meshoptTriangles), "--iterations", String(iterations)],
            install: "pip install --pre meshoptimizer==0.2.30a0")
        let streams = try Self.meshoptStreams(in: folder)
        var failure: (any Error)?
        let times = medians(
            iterations,
            [
                {
                    do {
                        for stream in streams {
                            _ = try MeshoptDecoder.decode(
                                stream.bytes, count: stream.count, stride: stream.stride, mode: stream.mode,
                                filter: stream.filter)
                        }
                    } catch { failure = error }
                }
            ])
        if let failure { throw failure }
        let ours = times[0] * 1000
        let theirs = try library.figure("meshopt_library_ms")
        print(library.output.split(separator: "\n").first.map(String.init) ?? "")
        print(
            String(
                format: "meshopt decode (positions, octahedral normals, triangles) %8.1f ms  (the library %.1f ms)",
                ours, theirs))
        print(String(format: "RESULT meshopt_decode_ms %.1f ms", ours))
        print(String(format: "RESULT meshopt_library_ms %.1f ms", theirs))
        print(String(format: "RESULT meshopt_decode_vs_library %.2f x", ours / theirs))
    }

    /// One of the streams the Python side wrote, with how to decode it.
    struct MeshoptStream {
        let bytes: [UInt8]
        let count: Int
        let stride: Int
        let mode: MeshoptDecoder.Mode
        let filter: MeshoptDecoder.Filter
    }

    /// The streams `streams.json` in `folder` lists.
    static func meshoptStreams(in folder: URL) throws -> [MeshoptStream] {
        struct Description: Decodable {
            let count: Int
            let stride: Int
            let mode: String
            let filter: String
        }
        let descriptions = try JSONDecoder().decode(
            [String: Description].self, from: Data(contentsOf: folder.appendingPathComponent("streams.json")))
        return try descriptions.sorted { $0.key < $1.key }.map { name, description in
            guard let mode = MeshoptDecoder.Mode(rawValue: description.mode),
                let filter = MeshoptDecoder.Filter(rawValue: description.filter)
            else { throw ValidationError("streams.json: \(name) has an unknown mode or filter") }
            return MeshoptStream(
                bytes: [UInt8](try Data(contentsOf: folder.appendingPathComponent(name + ".bin"))),
                count: description.count, stride: description.stride, mode: mode, filter: filter)
        }
    }
}
