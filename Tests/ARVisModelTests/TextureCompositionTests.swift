import ARVisGraphics
import Foundation
import Testing

@testable import ARVisModel

/// Apple's USDZ files keep metalness and roughness in separate single-channel maps; glTF wants one
/// texture (roughness in green, metalness in blue). Reading and inspecting never decode them; the
/// texture is made only when a writer needs it.
struct TextureCompositionTests {
    /// A `side × side` RGB PNG whose red channel is `value(x, y)`.
    static func png(side: Int, _ value: (Int, Int) -> UInt8) -> [UInt8] {
        var rgb = [UInt8](repeating: 0, count: side * side * 3)
        for y in 0..<side {
            for x in 0..<side { rgb[(y * side + x) * 3] = value(x, y) }
        }
        return PNGEncoder.encode(width: side, height: side, rgb: rgb)
    }

    /// A package laid out as Apple's: the material bound on the mesh's parent, separate metallic
    /// (8 × 8) and roughness (16 × 16) maps read through `outputs:r`.
    static func package(metallic: [UInt8]? = nil) throws -> [UInt8] {
        let layer = """
            #usda 1.0
            (
                defaultPrim = "Chair"
                metersPerUnit = 0.01
                upAxis = "Y"
            )
            def Xform "Chair"
            {
                def Xform "Geom" (
                    prepend apiSchemas = ["MaterialBindingAPI"]
                )
                {
                    rel material:binding = </Chair/Look>
                    def Mesh "Body"
                    {
                        int[] faceVertexCounts = [4]
                        int[] faceVertexIndices = [0, 1, 2, 3]
                        point3f[] points = [(0, 0, 0), (100, 0, 0), (100, 100, 0), (0, 100, 0)]
                        texCoord2f[] primvars:st = [(0, 0), (1, 0), (1, 1), (0, 1)] (
                            interpolation = "vertex"
                        )
                    }
                }
                def Material "Look"
                {
                    token outputs:surface.connect = </Chair/Look/Surface.outputs:surface>
                    def Shader "Surface"
                    {
                        uniform token info:id = "UsdPreviewSurface"
                        float inputs:metallic.connect = </Chair/Look/Metal.outputs:r>
                        float inputs:roughness.connect = </Chair/Look/Rough.outputs:r>
                        token outputs:surface
                    }
                    def Shader "Reader"
                    {
                        uniform token info:id = "UsdPrimvarReader_float2"
                        token inputs:varname = "st"
                        float2 outputs:result
                    }
                    def Shader "Metal"
                    {
                        uniform token info:id = "UsdUVTexture"
                        asset inputs:file = @0/metallic.png@
                        float2 inputs:st.connect = </Chair/Look/Reader.outputs:result>
                        float outputs:r
                    }
                    def Shader "Rough"
                    {
                        uniform token info:id = "UsdUVTexture"
                        asset inputs:file = @0/roughness.png@
                        float2 inputs:st.connect = </Chair/Look/Reader.outputs:result>
                        float outputs:r
                    }
                }
            }
            """
        return try USDZPackage.write([
            ("chair.usda", Array(layer.utf8)),
            ("0/metallic.png", metallic ?? png(side: 8) { x, _ in x < 4 ? 0 : 255 }),
            ("0/roughness.png", png(side: 16) { _, y in UInt8(y * 16) }),
        ])
    }

    @Test func readingAndInspectingDecodeNothing() throws {
        let model = try ModelFile.read(Self.package())
        let material = try #require(model.materials.first)
        let index = try #require(material.metallicRoughnessTexture)
        let texture = model.textures[index]
        #expect(texture.data.isEmpty && texture.composition != nil, "made only when written")
        #expect(material.metallicFactor == 1 && material.roughnessFactor == 1)
        #expect(model.textureSize(index)?.width == 16 && model.textureSize(index)?.height == 16)
        let report = ModelInspection(model)
        #expect(report.textures[index].width == 16)
    }

    @Test func writersMakeTheTextureFromTheChannels() throws {
        var warnings: [String] = []
        let model = try ModelFile.read(Self.package()).composingTextures(warnings: &warnings)
        #expect(warnings.isEmpty)
        let index = try #require(model.materials.first?.metallicRoughnessTexture)
        let image = try RasterImage(decoding: model.textures[index].data)
        #expect(image.width == 16 && image.height == 16)
        func pixel(_ x: Int, _ y: Int) -> [UInt8] { Array(image.pixels[(y * 16 + x) * 4..<(y * 16 + x) * 4 + 3]) }
        #expect(pixel(0, 0) == [255, 0, 0], "red 255, roughness 0, metal 0")
        #expect(pixel(15, 5) == [255, 80, 255], "roughness from row 5, metal from the right half (sampled up)")
        // The GLB carries it, and reads back with the same pixels.
        let back = try ModelFile.read(try GLBWriter().write(try ModelFile.read(Self.package())))
        let backIndex = try #require(back.materials.first?.metallicRoughnessTexture)
        #expect(try RasterImage(decoding: back.textures[backIndex].data).pixels == image.pixels)
    }

    @Test func anUndecodableSourceFallsBackToTheFactors() throws {
        var warnings: [String] = []
        let broken = Array(Self.png(side: 8) { _, _ in 9 }.prefix(60))
        let model = try ModelFile.read(Self.package(metallic: broken)).composingTextures(warnings: &warnings)
        #expect(model.materials.first?.metallicRoughnessTexture == nil)
        #expect(warnings.contains { $0.contains("could not be decoded") })
        #expect(try GLBWriter().write(model).count > 0)
    }
}
