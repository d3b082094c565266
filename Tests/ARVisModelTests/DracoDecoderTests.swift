import ARVisSupport
import Foundation
import Testing

@testable import ARVisModel

/// Draco's mesh decoder, held to what Google's decoder makes of streams Google's encoder wrote
/// (``DracoVectors``), to its limits, and to damaged streams; and `KHR_draco_mesh_compression` read
/// through a whole file.
struct DracoDecoderTests {
    /// FNV-1a (64 bits) over the triangles (three little-endian uint32 each), then the attributes'
    /// bytes in the order of their kinds (position, normal, colour, texture coordinate): the digest
    /// Scripts/make_draco_vectors.py takes of Google's decoding.
    static func digest(_ mesh: DracoMesh) -> UInt64 {
        var value: UInt64 = 0xCBF2_9CE4_8422_2325
        func add(_ bytes: some Sequence<UInt8>) {
            for byte in bytes { value = (value ^ UInt64(byte)) &* 0x100_0000_01B3 }
        }
        for index in mesh.indices { add((0..<4).map { UInt8(truncatingIfNeeded: index >> (8 * $0)) }) }
        for kind: UInt8 in [0, 1, 2, 3] {
            for attribute in mesh.attributes.values where attribute.kind == kind { add(attribute.bytes) }
        }
        return value
    }

    static func stream(_ name: String) throws -> [UInt8] {
        let vector = try #require(DracoVectors.cases.first { $0.name == name })
        return MeshoptDecoderTests.bytes(vector.stream)
    }

    static let roomy = DracoLimits(maximumFaces: 1_000_000, maximumPoints: 1_000_000)

    @Test(arguments: DracoVectors.cases.map(\.name))
    func decodesAsGooglesDecoder(_ name: String) throws {
        let vector = try #require(DracoVectors.cases.first { $0.name == name })
        let mesh = try DracoDecoder.decode(MeshoptDecoderTests.bytes(vector.stream), limits: Self.roomy)
        #expect(mesh.indices.count == vector.triangles * 3)
        #expect(mesh.pointCount == vector.points)
        #expect(mesh.indices.allSatisfy { Int($0) < mesh.pointCount })
        for attribute in mesh.attributes.values {
            #expect(attribute.bytes.count == mesh.pointCount * attribute.components * attribute.dataType.size)
        }
        #expect(Self.digest(mesh) == vector.digest, "\(name): not what Google's decoder makes of it")
    }

    /// The limits hold before anything is allocated: a stream of more triangles or points than allowed
    /// is refused, naming the limit.
    @Test func limitsAreCheckedFirst() throws {
        let stream = try Self.stream("sphereValence")
        let fewFaces = DracoLimits(maximumFaces: 1279, maximumPoints: 1_000)
        #expect(throws: DracoFailure.self) { try DracoDecoder.decode(stream, limits: fewFaces) }
        do {
            _ = try DracoDecoder.decode(stream, limits: DracoLimits(maximumFaces: 2_000, maximumPoints: 641))
            Issue.record("a stream of 642 points decoded within a limit of 641")
        } catch {
            #expect(error.message.contains("641"), "\(error)")
        }
        let fewValues = DracoLimits(maximumFaces: 2_000, maximumPoints: 1_000, maximumValues: 642 * 3)
        #expect(throws: DracoFailure.self) { try DracoDecoder.decode(stream, limits: fewValues) }
        #expect(throws: Never.self) {
            try DracoDecoder.decode(stream, limits: DracoLimits(maximumFaces: 1280, maximumPoints: 642))
        }
    }

    @Test func otherStreamsAreRefusedWithTheirReason() throws {
        let good = try Self.stream("torusStandard")
        var version = good
        version[5] = 1
        var cloud = good
        cloud[7] = 0
        for (bytes, words) in [
            (Array("glTF".utf8) + good, "DRACO"), (version, "bitstream 1.2"), (cloud, "point cloud"),
        ] {
            do {
                _ = try DracoDecoder.decode(bytes, limits: Self.roomy)
                Issue.record("decoded: \(words)")
            } catch {
                #expect(error.message.contains(words), "\(error)")
            }
        }
        let cut = #expect(throws: DracoFailure.self) {
            try DracoDecoder.decode(Array(good.prefix(30)), limits: Self.roomy)
        }
        #expect((cut?.offset ?? .max) <= 30, "\(String(describing: cut))")
    }

    /// Every stream cut short, or with bytes changed, is refused or decodes to a mesh whose triangles
    /// name its points and whose attributes have a value per point: never a trap, a hang or a read
    /// past the end (the AddressSanitizer suite runs this too).
    @Test func damagedStreamsAreRefusedOrHarmless() throws {
        var generator = SystemRandomNumberGenerator()
        var seed = UInt64.random(in: 0...UInt64.max, using: &generator)
        func next() -> UInt64 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return seed >> 33
        }
        let limits = DracoLimits(maximumFaces: 10_000, maximumPoints: 10_000)
        for vector in DracoVectors.cases {
            let stream = MeshoptDecoderTests.bytes(vector.stream)
            var variants = (0..<16).map { Array(stream.prefix(stream.count * $0 / 16)) }
            for _ in 0..<24 {
                var changed = stream
                for _ in 0...(next() % 3) { changed[Int(next() % UInt64(changed.count))] = UInt8(next() & 0xFF) }
                variants.append(changed)
            }
            for bytes in variants {
                guard let mesh = try? DracoDecoder.decode(bytes, limits: limits) else { continue }
                #expect(mesh.indices.allSatisfy { Int($0) < mesh.pointCount }, "\(vector.name), seed \(seed)")
                for attribute in mesh.attributes.values {
                    #expect(attribute.bytes.count == mesh.pointCount * attribute.components * attribute.dataType.size)
                }
            }
        }
    }

    // MARK: - KHR_draco_mesh_compression

    /// A glTF of one primitive whose POSITION, NORMAL and TEXCOORD_0 come from `stream` (DracoPy gives
    /// colours the unique id 0, texture coordinates 1, normals 2 and positions 3).
    static func gltf(_ stream: [UInt8], points: Int, triangles: Int, ids: [String: Int]? = nil) -> [UInt8] {
        let ids = ids ?? ["POSITION": 3, "NORMAL": 2, "TEXCOORD_0": 1]
        let attributes = ids.map { "\"\($0.key)\": \($0.value)" }.joined(separator: ", ")
        let uri = "data:application/octet-stream;base64," + Data(stream).base64EncodedString()
        let json = """
            {"asset": {"version": "2.0"}, "extensionsUsed": ["KHR_draco_mesh_compression"],
             "extensionsRequired": ["KHR_draco_mesh_compression"],
             "buffers": [{"byteLength": \(stream.count), "uri": "\(uri)"}],
             "bufferViews": [{"buffer": 0, "byteLength": \(stream.count)}],
             "accessors": [
               {"componentType": 5126, "count": \(points), "type": "VEC3"},
               {"componentType": 5126, "count": \(points), "type": "VEC3"},
               {"componentType": 5126, "count": \(points), "type": "VEC2"},
               {"componentType": 5125, "count": \(triangles * 3), "type": "SCALAR"}],
             "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "NORMAL": 1, "TEXCOORD_0": 2}, "indices": 3,
               "extensions": {"KHR_draco_mesh_compression": {"bufferView": 0, "attributes": {\(attributes)}}}}]}],
             "nodes": [{"mesh": 0}], "scenes": [{"nodes": [0]}]}
            """
        return Array(json.utf8)
    }

    static func read(_ file: [UInt8]) throws -> Model {
        var warnings: [String] = []
        let model = try ModelFile.read(file, fileName: "draco.gltf", warnings: &warnings)
        #expect(warnings.isEmpty, "\(warnings)")
        return model
    }

    @Test func aDracoPrimitiveReadsAsItsStream() throws {
        let stream = try Self.stream("torusValence")
        let decoded = try DracoDecoder.decode(stream, limits: Self.roomy)
        let model = try Self.read(Self.gltf(stream, points: 288, triangles: 576))
        let mesh = try #require(model.meshes.first)
        #expect(mesh.indices == decoded.indices)
        let positions = try #require(decoded.attributes[3]).floats(normalized: false)
        #expect(mesh.positions.flatMap { [$0.x, $0.y, $0.z] } == positions)
        #expect(mesh.normals.count == 288 && mesh.uvs.count == 288)
        let lengths = mesh.normals.map { ($0 * $0).sum().squareRoot() }
        #expect(lengths.allSatisfy { abs($0 - 1) < 0.01 })
    }

    /// A stream read again by another primitive is charged to the file's budget of decoded numbers
    /// again, as an accessor read is: with a budget for two reads of the 576-triangle torus (the first
    /// charges its 3 168 decoded attribute values and 1 728 indices, each later one 1 728 + 8 × 288),
    /// the third read is refused, so many primitives on one small stream cannot make the reader hold a
    /// copy each.
    @Test func aStreamReadAgainIsChargedEachTime() throws {
        let file = Self.gltf(try Self.stream("torusValence"), points: 288, triangles: 576)
        let document = try JSONDecoder().decode(GLTFDocument.self, from: Data(file))
        let buffers = try GLTFBuffers(
            document: document, glbBuffer: nil, external: nil, componentBudget: 4_896 + 4_032 + 100)
        let primitive = try #require(document.meshes?.first?.primitives.first)
        let compression = try #require(primitive.extensions?.draco)
        for read in 1...2 {
            #expect(throws: Never.self, "read \(read)") {
                try buffers.draco(compression, of: primitive, location: "meshes[0].primitives[0]")
            }
        }
        let error = #expect(throws: ModelError.self) {
            try buffers.draco(compression, of: primitive, location: "meshes[0].primitives[1]")
        }
        #expect(error?.description.contains("more than 9028 numbers") == true, "\(String(describing: error))")
    }

    @Test func aDracoPrimitiveThatDisagreesWithItsAccessorsIsRefusedWhereItIs() throws {
        let stream = try Self.stream("torusStandard")
        let cases: [([UInt8], String)] = [
            (Self.gltf(stream, points: 200, triangles: 576), "288 points, over the limit of 200"),
            (Self.gltf(stream, points: 288, triangles: 100), "576 triangles, over the limit of 100"),
            (Self.gltf(stream, points: 288, triangles: 576, ids: ["POSITION": 9]), "unique id 9"),
            (Self.gltf(stream, points: 288, triangles: 576, ids: ["POSITION": 1]), "2 components"),
            (Self.gltf(Array(stream.prefix(200)), points: 288, triangles: 576), "refused at byte"),
        ]
        for (file, words) in cases {
            do {
                _ = try ModelFile.read(file, fileName: "draco.gltf")
                Issue.record("read: \(words)")
            } catch {
                #expect(error.location?.contains("meshes[0].primitives[0]") == true, "\(error)")
                #expect("\(error)".contains(words), "\(error)")
            }
        }
    }
}
