import ARVisSupport
import Foundation
import Testing

@testable import ARVisModel

/// glTF files the Khronos validator calls valid that a stricter reader refused, and
/// `EXT_meshopt_compression` read through a whole file. Each relaxation quotes the words of the
/// glTF 2.0 specification (or the extension's) it follows.
struct GLTFRelaxationTests {
    private static func dataURI(_ bytes: [UInt8]) -> String {
        "data:application/octet-stream;base64,\(Data(bytes).base64EncodedString())"
    }

    /// One triangle's positions, as a data URI of 36 bytes.
    private static let triangle: String = {
        var bytes: [UInt8] = []
        for value: Float in [0, 0, 0, 1, 0, 0, 0, 1, 0] { withUnsafeBytes(of: value) { bytes += $0 } }
        return dataURI(bytes)
    }()

    private static func read(_ json: String, warnings: inout [String]) throws -> Model {
        try ModelFile.read(Array(json.utf8), fileName: "relaxed.gltf", warnings: &warnings)
    }

    /// 5.10 (buffers): "uri … When omitted, the buffer data is provided by other means" — a buffer
    /// without one that no view reads is nothing to refuse.
    @Test func aBufferWithoutAURIThatNothingReadsIsNotAnError() throws {
        var warnings: [String] = []
        let model = try Self.read(
            """
            {"asset": {"version": "2.0"}, "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
             "nodes": [{"mesh": 0}],
             "buffers": [{"byteLength": 36, "uri": "\(Self.triangle)"}, {"byteLength": 4096}],
             "bufferViews": [{"buffer": 0, "byteLength": 36}],
             "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]}]}
            """, warnings: &warnings)
        #expect(model.meshes.count == 1 && model.meshes[0].triangleCount == 1)
    }

    /// A view that does read such a buffer has no bytes to give: a located error, not a crash.
    @Test func aViewReadingABufferWithoutDataIsALocatedError() {
        var warnings: [String] = []
        let error = #expect(throws: ModelError.self) {
            try Self.read(
                """
                {"asset": {"version": "2.0"}, "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
                 "buffers": [{"byteLength": 36, "uri": "\(Self.triangle)"}, {"byteLength": 36}],
                 "bufferViews": [{"buffer": 1, "byteLength": 36}],
                 "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3"}]}
                """, warnings: &warnings)
        }
        #expect(error?.description.contains("reads buffer 1, which has no uri") == true, "\(String(describing: error))")
    }

    /// 3.7.2.1: "When positions are not specified, client implementations SHOULD skip primitive's
    /// rendering" — skipped with a warning; the mesh's other primitives are drawn.
    @Test func aPrimitiveWithoutPositionsIsSkippedWithAWarning() throws {
        var warnings: [String] = []
        let model = try Self.read(
            """
            {"asset": {"version": "2.0"}, "nodes": [{"mesh": 0}],
             "meshes": [{"primitives": [{"attributes": {"NORMAL": 0}}, {"attributes": {"POSITION": 0}}]}],
             "buffers": [{"byteLength": 36, "uri": "\(Self.triangle)"}],
             "bufferViews": [{"buffer": 0, "byteLength": 36}],
             "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]}]}
            """, warnings: &warnings)
        #expect(model.meshes.count == 1)
        #expect(warnings.contains("meshes[0].primitives[0]: the primitive has no POSITION and is not drawn"))
    }

    /// The 8 × 6 grid, its positions and its triangles compressed by the meshoptimizer library, in a
    /// file whose uncompressed views point into a fallback buffer with no data.
    private static func compressedGrid(filter: String? = nil, mode: String = "TRIANGLES", stride: Int = 4) -> String {
        let positions = MeshoptDecoderTests.bytes(MeshoptVectors.gridPositions)
        let vector = MeshoptVectors.triangles.first { $0.version == 1 && $0.stride == stride && $0.input == "grid 8x6" }
        let triangles = MeshoptDecoderTests.bytes(vector?.stream ?? "")
        let compressed = positions + triangles
        return """
            {"asset": {"version": "2.0"}, "nodes": [{"mesh": 0}],
             "extensionsUsed": ["EXT_meshopt_compression"], "extensionsRequired": ["EXT_meshopt_compression"],
             "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]}],
             "buffers": [{"byteLength": \(compressed.count), "uri": "\(dataURI(compressed))"},
                         {"byteLength": \(63 * 12 + 288 * stride), "extensions": {"EXT_meshopt_compression": {"fallback": true}}}],
             "bufferViews": [
               {"buffer": 1, "byteLength": \(63 * 12), "byteStride": 12, "extensions": {"EXT_meshopt_compression":
                 {"buffer": 0, "byteLength": \(positions.count), "byteStride": 12, "count": 63, "mode": "ATTRIBUTES"\(filter.map { #", "filter": "\#($0)""# } ?? "")}}},
               {"buffer": 1, "byteOffset": \(63 * 12), "byteLength": \(288 * stride), "extensions": {"EXT_meshopt_compression":
                 {"buffer": 0, "byteOffset": \(positions.count), "byteLength": \(triangles.count), "byteStride": \(stride), "count": 288, "mode": "\(mode)"}}}],
             "accessors": [
               {"bufferView": 0, "componentType": 5126, "count": 63, "type": "VEC3", "min": [0, 0, 0], "max": [8, 6, 0]},
               {"bufferView": 1, "componentType": \(stride == 2 ? 5123 : 5125), "count": 288, "type": "SCALAR"}]}
            """
    }

    @Test(arguments: [2, 4])
    func aMeshoptCompressedMeshReadsAsTheOriginal(indexStride: Int) throws {
        var warnings: [String] = []
        let model = try Self.read(Self.compressedGrid(stride: indexStride), warnings: &warnings)
        #expect(warnings.isEmpty, "\(warnings)")
        let mesh = try #require(model.meshes.first)
        #expect(mesh.positions == (0..<7).flatMap { y in (0..<9).map { x in SIMD3<Float>(Float(x), Float(y), 0) } })
        let triangles = MeshoptDecoderTests.grid(8, 6)
        #expect(mesh.indices.count == triangles.count)
        // The encoder may rotate a triangle's corners; every triangle is there, in order.
        for k in stride(from: 0, to: triangles.count, by: 3) {
            let read = Array(mesh.indices[k..<k + 3])
            let original = Array(triangles[k..<k + 3])
            #expect((0..<3).contains { r in (0..<3).map { read[($0 + r) % 3] } == original })
        }
    }

    @Test(arguments: [
        (#""mode": "TRIANGLES""#, #""mode": "STRIPS""#, "mode is ATTRIBUTES"),
        (#""count": 63, "mode""#, #""count": 64, "mode""#, "count × byteStride"),
        (
            #""byteLength": 169, "byteStride": 12, "count""#, #""byteLength": 168, "byteStride": 12, "count""#,
            "attribute stream"
        ),
        (#""buffer": 0, "byteLength""#, #""buffer": 1, "byteLength""#, "reads buffer 1, which has no uri"),
    ])
    func damagedCompressedViewsGetLocatedErrors(_ original: String, _ damaged: String, _ expected: String) throws {
        let json = Self.compressedGrid()
        #expect(json.contains(original), "the fixture has \(original)")
        var warnings: [String] = []
        let error = #expect(throws: ModelError.self) {
            try Self.read(json.replacingOccurrences(of: original, with: damaged), warnings: &warnings)
        }
        #expect(error?.description.contains(expected) == true, "\(String(describing: error))")
        #expect(error?.description.contains("bufferViews[") == true)
    }
}
