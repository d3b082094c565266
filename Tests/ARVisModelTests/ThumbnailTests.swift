import ARVisSpatial
import Testing

@testable import ARVisModel

struct ThumbnailTests {
    private func alpha(_ pixels: [Float], size: Int, _ x: Int, _ y: Int) -> Float { pixels[(y * size + x) * 4 + 3] }

    @Test func framesTheModelInTheMiddleOnATransparentBackground() throws {
        let size = 64
        let pixels = try ThumbnailRenderer(size: size).render(ModelFixtures.hierarchy())
        #expect(alpha(pixels, size: size, 0, 0) == 0 && alpha(pixels, size: size, size - 1, size - 1) == 0)
        // The whole bounding sphere fits: no drawn pixel touches the border.
        for k in 0..<size {
            #expect(alpha(pixels, size: size, k, 0) == 0 && alpha(pixels, size: size, 0, k) == 0)
            #expect(alpha(pixels, size: size, k, size - 1) == 0 && alpha(pixels, size: size, size - 1, k) == 0)
        }
        #expect(pixels.count == size * size * 4)
        #expect(pixels.indices.filter { $0 % 4 == 3 }.contains { pixels[$0] > 0.99 })
    }

    @Test func drawsTheTextureAndTheBackground() throws {
        // A cube seen almost head-on, its front face textured with four tiles.
        let model = Model(
            nodes: [Node(meshes: [0])], roots: [0], meshes: [ModelFixtures.cube()],
            materials: [Material(baseColorTexture: 0, metallicFactor: 0, roughnessFactor: 1)],
            textures: [ModelFixtures.texture])
        var camera = ThumbnailCamera(framing: model.bounds)
        camera.eye = SIMD3(0, 0, 3)
        camera.target = .zero
        let size = 40
        let pixels = try ThumbnailRenderer(size: size, background: SIMD4(0, 0, 0, 1)).render(model, camera: camera)
        func color(_ x: Int, _ y: Int) -> SIMD3<Float> {
            SIMD3(pixels[(y * size + x) * 4], pixels[(y * size + x) * 4 + 1], pixels[(y * size + x) * 4 + 2])
        }
        // Top-left tile red, top-right green, bottom-left blue (bilinear in between).
        let topLeft = color(size / 2 - 8, size / 2 - 8)
        let topRight = color(size / 2 + 7, size / 2 - 8)
        let bottomLeft = color(size / 2 - 8, size / 2 + 7)
        #expect(topLeft.x > 0.5 && topLeft.y < 0.3 && topLeft.z < 0.3)
        #expect(topRight.y > 0.5 && topRight.x < 0.3)
        #expect(bottomLeft.z > 0.5 && bottomLeft.x < 0.3)
        #expect(color(0, 0) == .zero && pixels[3] == 1)
    }

    @Test func emptyModelsAndBadSizes() throws {
        let pixels = try ThumbnailRenderer(size: 8).render(Model())
        #expect(pixels.allSatisfy { $0 == 0 })
        #expect(throws: ModelError.self) { try ThumbnailRenderer(size: 0).render(Model()) }
        #expect(throws: ModelError.self) { try ThumbnailRenderer(size: 5000).render(Model()) }
        let png = try ThumbnailRenderer(size: 16).png(of: ModelFixtures.hierarchy())
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }

    @Test func inspectionWarnsPastTheBudget() {
        var model = ModelFixtures.hierarchy()
        #expect(ModelInspection(model).warnings.isEmpty)
        #expect(ModelInspection(model).triangles == 24)
        let big = Mesh(
            positions: [SIMD3(0, 0, 0), SIMD3(1, 0, 0), SIMD3(0, 1, 0)],
            indices: [UInt32](repeating: 0, count: 3 * 100_001).enumerated().map { UInt32($0.offset % 3) })
        model.meshes.append(big)
        model.nodes[0].meshes.append(2)
        // A PNG header claiming 4096 × 4096.
        model.textures.append(
            Texture(
                data: [
                    0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 16, 0, 0,
                    0, 16, 0,
                ], format: .png))
        let warnings = ModelInspection(model).warnings
        #expect(warnings.count == 2)
        #expect(warnings[0].contains("100025 triangles"))
        #expect(warnings[1].contains("4096×4096"))
    }
}
