import ARVisSupport
import ARVisTestSupport
import Foundation
import Testing

@testable import ARVisGraphics
@testable import ARVisModel

/// Issue 51, item 1: a small GLB whose one highly compressible picture is named by many images,
/// used by many materials, must not make the renderer decode or keep a picture per image: images
/// sharing bytes are one texture, pixels are counted from the headers against a budget before
/// any is decoded, and what is kept is reduced to a thumbnail's needs.
struct TextureBombTests {
    /// A GLB of one triangle with `materials` materials (one primitive each), each using two
    /// images as base colour and emissive; the images name `pictures.count` pictures in turn.
    static func textureBomb(materials: Int, pictures: [[UInt8]]) -> [UInt8] {
        var binary: [UInt8] = []
        for value: Float in [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 1] {
            withUnsafeBytes(of: value.bitPattern.littleEndian) { binary += $0 }
        }
        var views: [JSONValue] = [
            ["buffer": 0, "byteOffset": 0, "byteLength": 36], ["buffer": 0, "byteOffset": 36, "byteLength": 24],
        ]
        for picture in pictures {
            views.append(
                [
                    "buffer": 0, "byteOffset": .number(Double(binary.count)),
                    "byteLength": .number(Double(picture.count)),
                ])
            binary += picture
            while binary.count % 4 != 0 { binary.append(0) }
        }
        let images = (0..<2 * materials).map { index -> JSONValue in
            ["bufferView": .number(Double(2 + index % pictures.count)), "mimeType": "image/png"]
        }
        let textures = (0..<2 * materials).map { index -> JSONValue in ["source": .number(Double(index))] }
        let materialList = (0..<materials).map { index -> JSONValue in
            [
                "pbrMetallicRoughness": ["baseColorTexture": ["index": .number(Double(2 * index))]],
                "emissiveTexture": ["index": .number(Double(2 * index + 1))], "emissiveFactor": [1, 1, 1],
            ]
        }
        let primitives = (0..<materials).map { index -> JSONValue in
            ["attributes": ["POSITION": 0, "TEXCOORD_0": 1], "material": .number(Double(index))]
        }
        let document: JSONValue = [
            "asset": ["version": "2.0"],
            "buffers": [["byteLength": .number(Double(binary.count))]],
            "bufferViews": .array(views),
            "accessors": [
                [
                    "bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0],
                    "max": [1, 1, 0],
                ],
                ["bufferView": 1, "componentType": 5126, "count": 3, "type": "VEC2"],
            ],
            "images": .array(images), "textures": .array(textures), "materials": .array(materialList),
            "meshes": [["primitives": .array(primitives)]],
            "nodes": [["mesh": 0]], "scenes": [["nodes": [0]]], "scene": 0,
        ]
        return HostileModels.glb(json: (try? JSONEncoder().encode(document)) ?? Data(), binary: binary)
    }

    /// A grey PNG of `side`² pixels, its first pixel `mark` (so pictures can differ).
    static func picture(side: Int, mark: UInt8 = 0) -> [UInt8] {
        var rgb = [UInt8](repeating: 128, count: side * side * 3)
        rgb[0] = mark
        return PNGEncoder.encode(width: side, height: side, rgb: rgb)
    }

    @Test func imagesNamingOneBufferViewAreOneTexture() throws {
        let bomb = Self.textureBomb(materials: 100, pictures: [Self.picture(side: 256)])
        #expect(bomb.count < 40_000, "a small file: \(bomb.count) bytes")
        let model = try ModelFile.read(bomb)
        #expect(model.textures.count == 1)
        #expect(model.materials.count == 100)
        #expect(model.materials.allSatisfy { $0.baseColorTexture == 0 && $0.emissiveTexture == 0 })
    }

    @Test func imagesWithTheSameBytesInOtherViewsAreOneTexture() throws {
        let picture = Self.picture(side: 64)
        let model = try ModelFile.read(Self.textureBomb(materials: 3, pictures: [picture, picture, picture]))
        #expect(model.textures.count == 1)
    }

    @Test func pixelsPastTheBudgetAreNotDecodedAndWhatIsKeptIsReduced() throws {
        let pictures = (0..<6).map { Self.picture(side: 256, mark: UInt8($0)) }
        let model = try ModelFile.read(Self.textureBomb(materials: 3, pictures: pictures))
        #expect(model.textures.count == 6)
        let decoded = TexturePictures(
            Array(0..<6), of: model, decodedPixels: 4 * 256 * 256, keptPixels: 2 * 128 * 128)
        #expect(decoded.pictures.count == 4, "the budget holds four 256² pictures")
        #expect(decoded.pictures.values.allSatisfy { $0.width * $0.height <= 128 * 128 / 2 })
        // A thumbnail of the model draws the pictures it could decode, and the others by their factors.
        let png = try ThumbnailRenderer(size: 32).png(of: model)
        #expect(RasterImage.displaySize(of: png)?.width == 32)
    }

    @Test func moreImagesThanTheLimitAreRefusedBeforeAnyIsRead() throws {
        var limits = Model.Limits()
        limits.textures = 10
        let bomb = Self.textureBomb(materials: 6, pictures: [Self.picture(side: 8)])
        var warnings: [String] = []
        let error = #expect(throws: ModelError.self) { try ModelFile.read(bomb, limits: limits, warnings: &warnings) }
        #expect(error?.code == .tooLarge && error?.message.contains("12 images") == true)
    }

    @Test func aReducedPictureIsTheMeanOfItsSquares() {
        let image = RasterImage(width: 4, height: 2, pixels: [UInt8]((0..<32).map { UInt8($0 * 4) }))
        let reduced = image.reduced(toAtMost: 2)
        #expect(reduced.width == 2 && reduced.height == 1)
        // The first square holds pixels 0, 1, 4 and 5: red 0, 16, 64 and 80.
        #expect(reduced.pixels[0] == 40)
        #expect(image.reduced(toAtMost: 8) == image)
    }
}
