import ARVisGraphics
import ARVisModel
import ArgumentParser
import Foundation

/// `arvis-bench models`: GLB ⇄ USDZ conversion and thumbnails of a 100 000-triangle textured model,
/// then a USDZ laid out as Apple's are, beside usd-core and f3d on the same file; then meshopt streams
/// decoded beside the meshoptimizer library, and Draco streams beside Google's decoder.
struct ModelsBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "models",
        abstract:
            "Convert a 100 000-triangle textured model GLB → USDZ and USDZ → GLB, and draw its 512 × 512 thumbnail (medians); then inspect, convert and draw an Apple-style USDZ beside usd-core and f3d.",
        discussion: """
            The Apple-style file is made by Benchmarks/apple_like_usdz.py with usd-core (pip install \
            usd-core==26.3), which also times usd-core opening and traversing it; f3d (pip install f3d) \
            draws the GLB ARVis converts it to, offscreen, at the same size as ARVis's thumbnail. \
            Benchmarks/meshopt_decode.py (pip install --pre meshoptimizer==0.2.30a0) encodes a \
            1-million-triangle mesh with the meshoptimizer library and times the library's decoders; \
            Benchmarks/draco_decode.py (pip install DracoPy==2.2.0) does the same with Google's Draco.
            """
    )

    @Option(help: "The Python with usd-core and f3d, for the Apple-style file and the peers' figures.")
    var python = "python3"

    @Option(help: "Timed repetitions of each figure.")
    var iterations = 15

    @Option(help: "Triangles of the test model (a textured UV sphere).")
    var triangles = 100_000

    @Option(help: "Triangles of the mesh whose meshopt and Draco streams are decoded.")
    var meshoptTriangles = 1_000_000

    func run() throws {
        let model = Self.sphere(triangles: triangles, textureSide: 1024)
        let glb = try GLBWriter().write(model)
        let usdz = try USDZWriter().write(model)
        var failure: (any Error)?
        let times = medians(
            iterations,
            [
                { do { _ = try USDZWriter().write(try ModelFile.read(glb)) } catch { failure = error } },
                { do { _ = try GLBWriter().write(try ModelFile.read(usdz)) } catch { failure = error } },
                { do { _ = try ThumbnailRenderer(size: 512).png(of: model) } catch { failure = error } },
                {
                    do { _ = try ThumbnailRenderer(size: 512).png(of: try ModelFile.read(glb)) } catch {
                        failure = error
                    }
                },
            ])
        if let failure { throw failure }
        print(
            "model: \(model.drawnTriangleCount) triangles, \(model.drawnVertexCount) vertices, a 1024 × 1024 PNG texture; GLB \(glb.count) bytes, USDZ \(usdz.count) bytes"
        )
        print(String(format: "GLB → USDZ (read + write)        %8.1f ms  (target ≤ 200)", times[0] * 1000))
        print(String(format: "USDZ → GLB (read + write)        %8.1f ms  (target ≤ 200)", times[1] * 1000))
        print(String(format: "512 × 512 thumbnail              %8.1f ms  (target ≤ 150)", times[2] * 1000))
        print(String(format: "GLB file → 512 × 512 thumbnail   %8.1f ms", times[3] * 1000))
        print(String(format: "RESULT glb_to_usdz_ms %.1f ms", times[0] * 1000))
        print(String(format: "RESULT usdz_to_glb_ms %.1f ms", times[1] * 1000))
        print(String(format: "RESULT thumbnail_512_ms %.1f ms", times[2] * 1000))
        print(String(format: "RESULT glb_file_thumbnail_512_ms %.1f ms", times[3] * 1000))
        try appleStyle()
        try meshopt()
        try draco()
    }

    /// Inspect, convert to GLB and draw at 512 × 512 a USDZ laid out as Apple's samples are (five
    /// 2048² textures, separate metallic and roughness maps), each from the file's bytes; and the
    /// peers on the same file: usd-core opening and traversing it, f3d drawing its GLB.
    func appleStyle() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("arvis-bench-apple-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let usdzPath = folder.appendingPathComponent("apple_like.usdz").path
        let usdCore = try PythonSide(
            python: python, script: "Benchmarks/apple_like_usdz.py", arguments: [usdzPath],
            install: "pip install usd-core==26.3 pillow numpy")
        let usdz = [UInt8](try Data(contentsOf: URL(fileURLWithPath: usdzPath)))
        var failure: (any Error)?
        var glb: [UInt8] = []
        let times = medians(
            iterations,
            [
                {
                    do { _ = ModelInspection(try ModelFile.read(usdz)) } catch { failure = error }
                },
                {
                    do {
                        var warnings: [String] = []
                        glb = try GLBWriter().write(try ModelFile.read(usdz).composingTextures(warnings: &warnings))
                    } catch { failure = error }
                },
                {
                    do { _ = try ThumbnailRenderer(size: 512).png(of: try ModelFile.read(usdz)) } catch {
                        failure = error
                    }
                },
            ])
        if let failure { throw failure }
        let glbPath = folder.appendingPathComponent("apple_like.glb").path
        try Data(glb).write(to: URL(fileURLWithPath: glbPath))
        let f3d = try PythonSide(
            python: python, script: "Benchmarks/apple_like_usdz.py",
            arguments: [usdzPath, "--glb", glbPath, "--size", "512"], install: "pip install f3d")
        let usdCoreMilliseconds = try usdCore.figure("usdcore_open_traverse_ms")
        let f3dMilliseconds = try f3d.figure("f3d_thumbnail_ms")
        let (inspect, convert, thumbnail) = (times[0] * 1000, times[1] * 1000, times[2] * 1000)
        print(usdCore.output.split(separator: "\n").first.map(String.init) ?? "")
        print(
            String(
                format:
                    "Apple-style USDZ, inspect           %8.1f ms  (target ≤ 100; usd-core open + traverse %.1f ms)",
                inspect, usdCoreMilliseconds))
        print(String(format: "Apple-style USDZ → GLB               %8.1f ms  (target ≤ 500)", convert))
        print(
            String(
                format: "Apple-style USDZ → 512 × 512 thumbnail %6.1f ms  (target ≤ 500; f3d on its GLB %.1f ms)",
                thumbnail, f3dMilliseconds))
        print(String(format: "RESULT usdz_apple_inspect_ms %.1f ms", inspect))
        print(String(format: "RESULT usdz_apple_convert_ms %.1f ms", convert))
        print(String(format: "RESULT usdz_apple_thumbnail_ms %.1f ms", thumbnail))
        print(String(format: "RESULT usdcore_open_traverse_ms %.1f ms", usdCoreMilliseconds))
        print(String(format: "RESULT f3d_thumbnail_512_ms %.1f ms", f3dMilliseconds))
        print(String(format: "RESULT usdz_apple_inspect_vs_usdcore %.2f x", inspect / usdCoreMilliseconds))
        print(String(format: "RESULT usdz_apple_thumbnail_vs_f3d %.2f x", thumbnail / f3dMilliseconds))
    }

    /// A UV sphere of about `triangles` triangles with normals, texture coordinates and a
    /// checkerboard texture of `textureSide` pixels.
    static func sphere(triangles: Int, textureSide: Int) -> Model {
        let rings = max(4, Int((Double(triangles) / 4).squareRoot()))
        let segments = max(8, triangles / (2 * rings))
        var positions: [SIMD3<Float>] = []
        var normals: [SIMD3<Float>] = []
        var uvs: [SIMD2<Float>] = []
        var indices: [UInt32] = []
        for ring in 0...rings {
            let v = Float(ring) / Float(rings)
            let theta = v * .pi
            for segment in 0...segments {
                let u = Float(segment) / Float(segments)
                let phi = u * 2 * .pi
                let n = SIMD3<Float>(sin(theta) * cos(phi), cos(theta), sin(theta) * sin(phi))
                positions.append(n * 0.5)
                normals.append(n)
                uvs.append(SIMD2(u, v))
            }
        }
        let row = UInt32(segments + 1)
        for ring in 0..<UInt32(rings) {
            for segment in 0..<UInt32(segments) {
                let a = ring * row + segment
                let b = a + row
                indices += [a, a + 1, b, a + 1, b + 1, b]
            }
        }
        var pixels = [Float](repeating: 1, count: textureSide * textureSide * 4)
        for y in 0..<textureSide {
            for x in 0..<textureSide where (x / 64 + y / 64) % 2 == 0 {
                let at = (y * textureSide + x) * 4
                (pixels[at], pixels[at + 1], pixels[at + 2]) = (
                    0.8, 0.15 + Float(x % 64) / 200, 0.1 + Float(y % 64) / 300
                )
            }
        }
        let png = pixels.withUnsafeBufferPointer {
            PNGEncoder.encode(width: textureSide, height: textureSide, premultiplied: $0)
        }
        return Model(
            nodes: [Node(name: "Sphere", meshes: [0])], roots: [0],
            meshes: [
                Mesh(name: "Sphere", positions: positions, normals: normals, uvs: uvs, indices: indices, material: 0)
            ],
            materials: [Material(name: "Checker", baseColorTexture: 0, metallicFactor: 0, roughnessFactor: 0.6)],
            textures: [Texture(name: "checker", data: png, format: .png)])
    }
}
