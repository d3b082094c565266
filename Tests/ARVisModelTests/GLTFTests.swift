import ARVisSpatial
import ARVisSpec
import ARVisSupport
import Foundation
import Testing

@testable import ARVisModel

struct GLTFTests {
    @Test func modelsRoundTripThroughGLB() throws {
        let model = ModelFixtures.hierarchy()
        let read = try ModelFile.read(try GLBWriter().write(model))
        #expect(read.meshes.map(\.positions) == model.meshes.map(\.positions))
        #expect(read.meshes.map(\.normals) == model.meshes.map(\.normals))
        #expect(read.meshes.map(\.uvs) == model.meshes.map(\.uvs))
        #expect(read.meshes.map(\.indices) == model.meshes.map(\.indices))
        #expect(read.materials == model.materials)
        #expect(read.textures.map(\.data) == model.textures.map(\.data))
        #expect(read.nodes.map(\.transform) == model.nodes.map(\.transform))
        #expect(read.roots == model.roots)
        #expect(read.bounds == model.bounds)
    }

    /// A glTF JSON with translation, rotation and scale, a triangle fan, a sparse accessor and
    /// normalized texture coordinates.
    @Test func readsTransformsModesAndAccessorKinds() throws {
        var bytes: [UInt8] = []
        // 4 positions, 48 bytes
        for value: Float in [0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0] { withUnsafeBytes(of: value) { bytes += $0 } }
        bytes += [0, 0, 255, 0, 255, 255, 0, 255]  // 4 normalized uint8 uv pairs at 48
        for index: UInt16 in [3] { withUnsafeBytes(of: index) { bytes += $0 } }  // sparse index at 56
        bytes += [0, 0]
        for value: Float in [0, 2, 0] { withUnsafeBytes(of: value) { bytes += $0 } }  // sparse value at 60
        let json = """
            {"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}],
             "nodes": [{"mesh": 0, "translation": [1, 2, 3], "rotation": [0, 0.7071068, 0, 0.7071068], "scale": [2, 2, 2]}],
             "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "TEXCOORD_0": 1}, "mode": 6}]}],
             "buffers": [{"byteLength": \(bytes.count), "uri": "data:application/octet-stream;base64,\(Data(bytes).base64EncodedString())"}],
             "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 48}, {"buffer": 0, "byteOffset": 48, "byteLength": 8},
                             {"buffer": 0, "byteOffset": 56, "byteLength": 2}, {"buffer": 0, "byteOffset": 60, "byteLength": 12}],
             "accessors": [{"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3",
                            "sparse": {"count": 1, "indices": {"bufferView": 2, "componentType": 5123}, "values": {"bufferView": 3}}},
                           {"bufferView": 1, "componentType": 5121, "normalized": true, "count": 4, "type": "VEC2"}]}
            """
        let model = try ModelFile.read(Array(json.utf8), fileName: "x.gltf")
        let mesh = try #require(model.meshes.first)
        #expect(mesh.positions[3] == SIMD3(0, 2, 0))
        #expect(mesh.uvs == [SIMD2(0, 0), SIMD2(1, 0), SIMD2(1, 1), SIMD2(0, 1)])
        #expect(mesh.indices == [0, 1, 2, 0, 2, 3])
        // Scale 2, a quarter turn about +Y, then the translation: (1, 0, 0) ↦ (1, 2, 3) + 2·(0, 0, −1).
        let moved = model.nodes[0].transform.transformPoint(Vec3(1, 0, 0))
        #expect(abs(moved.x - 1) < 1e-6 && abs(moved.y - 2) < 1e-6 && abs(moved.z - 1) < 1e-6)
    }

    @Test func unreadablePicturesLeaveTheirMaterialsUntextured() throws {
        let json = """
            {"asset": {"version": "2.0"}, "images": [{"uri": "data:image/gif;base64,R0lGODlhAQABAAAAACw="}], "textures": [{"source": 0}],
             "materials": [{"pbrMetallicRoughness": {"baseColorTexture": {"index": 0}, "baseColorFactor": [0.5, 0.5, 0.5, 1]}}]}
            """
        var warnings: [String] = []
        let model = try ModelFile.read(Array(json.utf8), fileName: "x.gltf", warnings: &warnings)
        #expect(
            model.materials[0].baseColorTexture == nil && model.materials[0].baseColorFactor == SIMD4(0.5, 0.5, 0.5, 1))
        #expect(warnings.contains { $0.contains("neither PNG nor JPEG") })
        #expect(ModelInspection(model).warnings.isEmpty == false)
    }

    @Test func stripsKeepCounterClockwiseOrder() {
        #expect(GLTFReader.triangles([0, 1, 2, 3, 4], mode: 5) == [0, 1, 2, 2, 1, 3, 2, 3, 4])
        #expect(GLTFReader.triangles([0, 1, 2, 3], mode: 6) == [0, 1, 2, 0, 2, 3])
        #expect(GLTFReader.triangles([0, 1], mode: 5) == [])
    }

    @Test(arguments: [
        (#"{"asset": {"version": "1.0"}}"#, "only 2.x"),
        (
            #"{"asset": {"version": "2.0"}, "extensionsRequired": ["EXT_mesh_gpu_instancing"]}"#,
            "EXT_mesh_gpu_instancing"
        ),
        (
            #"{"asset": {"version": "2.0"}, "nodes": [{"children": [1]}, {"children": [2]}, {"children": [1]}], "scenes": [{"nodes": [0]}]}"#,
            "more than one parent"
        ),
        (
            #"{"asset": {"version": "2.0"}, "nodes": [{"children": [1]}, {"children": [0]}], "scenes": [{"nodes": [0]}]}"#,
            "has a parent"
        ),
        (#"{"asset": {"version": "2.0"}, "nodes": [{"children": [0]}], "scenes": [{"nodes": [0]}]}"#, "root 0"),
        (#"{"asset": {"version": "2.0"}, "nodes": [{"mesh": 4}]}"#, "mesh 4 does not exist"),
        (#"{"asset": {"version": "2.0"}, "nodes": [{"matrix": [1, 2]}]}"#, "16 finite numbers"),
        (
            #"{"asset": {"version": "2.0"}, "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}], "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3"}]}"#,
            "bufferView 0 does not exist"
        ),
        (#"{"asset": {"version": "2.0"}, "buffers": [{"byteLength": 4, "uri": "/etc/passwd"}]}"#, "external resource"),
        (#"{"asset": 3}"#, "asset"),
    ])
    func hostileFilesGetLocatedErrors(_ json: String, _ expected: String) {
        let error = #expect(throws: ModelError.self) { try ModelFile.read(Array(json.utf8), fileName: "bad.gltf") }
        #expect(error?.description.contains(expected) == true, "\(String(describing: error))")
    }

    @Test func truncatedAndMislabelledGLBsAreRefused() throws {
        let glb = try GLBWriter().write(ModelFixtures.hierarchy())
        for length in [4, 12, 20, glb.count / 2, glb.count - 1] {
            #expect(throws: ModelError.self) { try ModelFile.read(Array(glb.prefix(length)), fileName: "x.glb") }
        }
        var wrongVersion = glb
        wrongVersion[4] = 1
        #expect(throws: ModelError.self) { try ModelFile.read(wrongVersion) }
        #expect(throws: ModelError.self) { try ModelFile.read(Array("not a model".utf8), fileName: "x.obj") }
    }

    /// Found by fuzzing (docs/fuzzing.md): a mesh that drew no triangle was written with empty
    /// accessors and buffer views and no buffer, a GLB its own reader refused.
    @Test func aMeshThatDrawsNoTriangleIsLeftOut() throws {
        let finding = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Findings/glb-mesh-without-triangles.glb")
        var warnings: [String] = []
        let model = try ModelFile.read([UInt8](try Data(contentsOf: finding)), fileName: "f.glb", warnings: &warnings)
        #expect(model.meshes.allSatisfy { $0.triangleCount > 0 })
        #expect(warnings.contains("2 of the meshes draw no triangle and are left out"))
        let again = try ModelFile.read(try ModelFile.write(model, as: .glb), fileName: "again.glb")
        #expect(again == model)
    }

    /// Found by fuzzing: a glTF whose index accessor holds 2 indices (less than a triangle) in
    /// each of its 7 meshes. The fuzz target read it with `GLTFReader` itself, which keeps such
    /// meshes, while the writer leaves them out; `ModelFile.read`, the only way ARVis reads a file,
    /// leaves them out too, so the round trip holds.
    @Test func aGLTFWhoseMeshesDrawNoTriangleReadsAndWritesBackTheSame() throws {
        let finding = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Findings/gltf-meshes-without-triangles.gltf")
        var warnings: [String] = []
        let model = try ModelFile.read([UInt8](try Data(contentsOf: finding)), fileName: "f.gltf", warnings: &warnings)
        #expect(model.meshes.isEmpty && model.nodes.count == 7)
        #expect(warnings.contains("7 of the meshes draw no triangle and are left out"))
        let again = try ModelFile.read(try ModelFile.write(model, as: .glb), fileName: "again.glb")
        #expect(again == model)
    }

    @Test func theWriterLeavesOutMeshesThatDrawNothingAndRenumbersTheRest() throws {
        let triangle = Mesh(name: "drawn", positions: [.zero, SIMD3(1, 0, 0), SIMD3(0, 1, 0)], indices: [0, 1, 2])
        let points = Mesh(name: "points", positions: [.zero], indices: [])
        let model = Model(
            nodes: [Node(name: "a", children: [1], meshes: [0, 1]), Node(name: "b", meshes: [1, 2])], roots: [0],
            meshes: [points, triangle, triangle])
        let read = try ModelFile.read(try ModelFile.write(model, as: .glb), fileName: "m.glb")
        #expect(read.meshes.map(\.name) == ["drawn", "drawn"])
        #expect(read.nodes.map(\.meshes) == [[0], [0], [1]])  // glTF draws b's second mesh on a child node
        #expect(model.droppingEmptyMeshes().nodes.map(\.meshes) == [[0], [0, 1]])
    }
}
