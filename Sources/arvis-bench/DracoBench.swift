import ARVisModel
import ArgumentParser
import Foundation

extension ModelsBench {
    /// `KHR_draco_mesh_compression`: ARVis's Draco decoder against Google's on the same streams of a
    /// 1-million-triangle mesh with normals (Benchmarks/draco_decode.py encodes them with Google's
    /// encoder at levels 3 and 7, and times Google's decoder through DracoPy).
    func draco() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("arvis-bench-draco-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let google = try PythonSide(
            python: python, script: "Benchmarks/draco_decode.py",
            arguments: [folder.path, "--triangles", String(meshoptTriangles), "--iterations", String(iterations)],
            install: "pip install DracoPy==2.2.0")
        let streams = try ["level3.drc", "level7.drc"].map {
            [UInt8](try Data(contentsOf: folder.appendingPathComponent($0)))
        }
        let limits = DracoLimits(maximumFaces: 4 * meshoptTriangles, maximumPoints: 4 * meshoptTriangles)
        var failure: (any Error)?
        let times = medians(
            iterations,
            [
                {
                    do {
                        for stream in streams { _ = try DracoDecoder.decode(stream, limits: limits) }
                    } catch { failure = error }
                }
            ])
        if let failure { throw failure }
        let ours = times[0] * 1000
        let theirs = try google.figure("draco_google_ms")
        print(google.output.split(separator: "\n").first.map(String.init) ?? "")
        print(
            String(
                format: "Draco decode (levels 3 and 7, positions and normals) %8.1f ms  (Google's %.1f ms)", ours,
                theirs))
        print(String(format: "RESULT draco_decode_ms %.1f ms", ours))
        print(String(format: "RESULT draco_google_ms %.1f ms", theirs))
        print(String(format: "RESULT draco_decode_vs_google %.2f x", ours / theirs))
    }
}
