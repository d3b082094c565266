import ARVisSpatial
import ARVisSpec
import ARVisSupport
import Testing

@testable import ARVisModel

struct USDTests {
    @Test func modelsRoundTripThroughUSDZ() throws {
        let model = ModelFixtures.hierarchy()
        let read = try ModelFile.read(try USDZWriter().write(model))
        #expect(read.upAxis == .y && read.metersPerUnit == 1)
        #expect(read.drawnTriangleCount == model.drawnTriangleCount)
        let expected = try #require(model.bounds)
        let got = try #require(read.bounds)
        #expect((expected.minimum - got.minimum).length < 1e-6 && (expected.maximum - got.maximum).length < 1e-6)
        // Texture coordinates come back in the model's convention (v down) after USD's flip.
        #expect(read.meshes[0].uvs == model.meshes[0].uvs)
        #expect(read.meshes[0].normals == model.meshes[0].normals)
        #expect(read.textures.map(\.data) == model.textures.map(\.data))
        let plain = try #require(read.materials.first { $0.name == "Material_1" })
        #expect(plain.baseColorFactor == SIMD4(0.2, 0.4, 0.6, 0.5) && plain.alphaMode == .blend)
        #expect(plain.metallicFactor == 0.3 && plain.roughnessFactor == 0.8 && plain.emissiveFactor == SIMD3(0.1, 0, 0))
        #expect(read.materials.first { $0.name == "Material_0" }?.baseColorTexture != nil)
    }

    @Test func packagesAlignEveryFileTo64Bytes() throws {
        let bytes = try USDZWriter(anchoring: .image(ModelFixtures.texture, physicalWidth: 0.2)).write(
            ModelFixtures.hierarchy())
        let package = try USDZPackage(reading: bytes)
        #expect(package.entries.map(\.name) == ["scene.usdc", "0/texture_0.png", "0/anchor.png"])
        for entry in package.entries { #expect(entry.data.startIndex % 64 == 0) }
        let layer = try CrateReader(Array(package.entries[0].data)).layer()
        #expect(layer.specs["/Root.preliminary:anchoring:type"]?.fields["default"]?.text == "image")
        #expect(layer.specs["/Root/AnchorImage.physicalWidth"]?.fields["default"]?.number == 20)
        #expect(
            layer.specs["/Root.preliminary:imageAnchoring:referenceImage"]?.fields["targetPaths"]?.strings == [
                "/Root/AnchorImage"
            ])
    }

    static let text = """
        #usda 1.0
        (
            defaultPrim = "World"
            metersPerUnit = 0.01
            upAxis = "Z"
        )

        def Xform "World" (
            kind = "component"
        )
        {
            double3 xformOp:translate = (0, 0, 100)
            float3 xformOp:rotateXYZ = (0, 0, 90)
            uniform token[] xformOpOrder = ["xformOp:translate", "xformOp:rotateXYZ"]

            def Mesh "Quad" (
                prepend apiSchemas = ["MaterialBindingAPI"]
            )
            {
                int[] faceVertexCounts = [4]
                int[] faceVertexIndices = [0, 1, 2, 3]
                point3f[] points = [(0, 0, 0), (100, 0, 0), (100, 100, 0), (0, 100, 0)]
                texCoord2f[] primvars:st = [(0, 0), (1, 0), (1, 1), (0, 1)] (
                    interpolation = "faceVarying"
                )
                int[] primvars:st:indices = [0, 1, 2, 3]
                rel material:binding = </World/Look>
            }

            def Material "Look"
            {
                token outputs:surface.connect = </World/Look/Surface.outputs:surface>
                def Shader "Surface"
                {
                    uniform token info:id = "UsdPreviewSurface"
                    color3f inputs:diffuseColor = (0.25, 0.5, 1)
                    float inputs:roughness = 0.125
                    token outputs:surface
                }
            }

            def "Hidden" (
                active = false
            )
            {
            }
        }
        """

    @Test func readsTextLayers() throws {
        let model = try ModelFile.read(Array(Self.text.utf8))
        #expect(model.upAxis == .z && model.metersPerUnit == 0.01)
        let quad = try #require(model.meshes.first)
        #expect(quad.triangleCount == 2 && quad.positions.count == 4)
        #expect(quad.uvs[2] == SIMD2(1, 0))
        #expect(model.materials.first?.baseColorFactor == SIMD4(0.25, 0.5, 1, 1))
        #expect(model.materials.first?.roughnessFactor == 0.125)
        // Turned 90° about Z, raised 100 cm along Z: x in −100…0, y in 0…100, z = 100 (cm, Z up);
        // in metres with Y up, (x, y, z) ↦ (x, z, −y).
        let bounds = try #require(model.normalized().bounds)
        #expect((bounds.minimum - Vec3(-1, 1, -1)).length < 1e-9)
        #expect((bounds.maximum - Vec3(0, 1, 0)).length < 1e-9)
    }

    @Test(arguments: [
        ("#usda 1.0\ndef Mesh \"A\" {\n  int[] x = [1, 2\n}\n", "line 4"),
        ("#usda 1.0\ndef Mesh \"A\" {\n", "line 3"),
        ("#usda 1.0\ndef Mesh \"A\" {\n  string s = \"open\n}\n", "line 3"),
        ("#usda 1.0\ndef Mesh \"A\" {}\ndef Mesh \"A\" {}\n", "defined twice"),
        (
            "#usda 1.0\ndef Mesh \"A\" {\n point3f[] points = [(0,0,0)]\n int[] faceVertexCounts = [3]\n int[] faceVertexIndices = [0, 1, 2]\n}\n",
            "point that does not exist"
        ),
        (String(repeating: "#usda 1.0\n", count: 1) + String(repeating: "def \"A\" {\n", count: 300), "nest more than"),
    ])
    func brokenTextGetsLocatedErrors(_ text: String, _ expected: String) {
        let error = #expect(throws: ModelError.self) { try ModelFile.read(Array(text.utf8)) }
        #expect(error?.description.contains(expected) == true, "\(String(describing: error))")
    }

    @Test func transformOperationsComposeInOrder() throws {
        // rotateXYZ (90, 0, 90): X first, then Z. (0, 1, 0) ↦ X: (0, 0, 1) ↦ Z: (0, 0, 1).
        let xyz = try USDStageReader.matrix(of: "xformOp:rotateXYZ", [90, 0, 90], location: "")
        #expect((xyz.transformPoint(Vec3(0, 1, 0)) - Vec3(0, 0, 1)).length < 1e-9)
        #expect((xyz.transformPoint(Vec3(1, 0, 0)) - Vec3(0, 1, 0)).length < 1e-9)
        // orient (w, x, y, z) = a quarter turn about +Y: (1, 0, 0) ↦ (0, 0, −1).
        let orient = try USDStageReader.matrix(of: "xformOp:orient", [0.7071068, 0, 0.7071068, 0], location: "")
        #expect((orient.transformPoint(Vec3(1, 0, 0)) - Vec3(0, 0, -1)).length < 1e-6)
        #expect(throws: ModelError.self) { try USDStageReader.matrix(of: "xformOp:shear", [1], location: "") }
        #expect(throws: ModelError.self) {
            try USDStageReader.matrix(of: "xformOp:translate", [1, .nan, 0], location: "")
        }
    }

    @Test func damagedPackagesAreRefused() throws {
        let bytes = try USDZWriter().write(ModelFixtures.hierarchy())
        for length in [10, 40, 100, bytes.count / 2] {
            #expect(throws: ModelError.self) { try ModelFile.read(Array(bytes.prefix(length)), fileName: "x.usdz") }
        }
        var deflated = bytes
        deflated[8] = 8
        let error = try #require(throws: ModelError.self) { try ModelFile.read(deflated) }
        #expect(error.message.contains("compressed"))
    }

    /// Found by fuzzing: each byte of a name that is not UTF-8 reads as U+FFFD, three bytes, so a
    /// package read can hold a name longer than the 65 535 bytes a zip's name field holds; writing it
    /// again trapped on the field. The writer refuses such a name.
    @Test func aNameTooLongForAZipIsRefusedWhenWritten() throws {
        let written = try USDZPackage.write([(String(repeating: "a", count: 30_000), [1, 2, 3])])
        let package = try USDZPackage(reading: written.map { $0 == UInt8(ascii: "a") ? 0xFF : $0 })
        let files = package.entries.map { (name: $0.name, data: Array($0.data)) }
        #expect(files.map(\.name.utf8.count) == [90_000])
        let error = try #require(throws: ModelError.self) { try USDZPackage.write(files) }
        #expect(error.code == .tooLarge && error.message.contains("65 535"))
    }
}
