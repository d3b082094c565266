import ARVisGraphics
import ARVisPipeline
import ARVisSpec
import ARVisSupport
import Foundation
import Testing

/// The one place output formats are chosen: each format's bytes start as their format says, with
/// the media type the server answers with.
struct OutputTests {
    static let fonts = Result { try FontLibrary.standard() }

    /// A drawing, and its side in points.
    static func drawing() throws -> (drawing: Drawing, side: Int) {
        let code = try QRCode(encoding: "ARVis", errorCorrection: .low)
        return (code.drawing(moduleSize: 2), (code.size + 2 * QRCode.quietZone) * 2)
    }

    @Test(arguments: WidgetFormat.allCases)
    func widgetFormatsWriteTheirKindOfFile(_ format: WidgetFormat) throws {
        var warnings: [GraphicsError] = []
        let (drawing, side) = try Self.drawing()
        let output = try format.encode(drawing, scale: 2, fonts: { try Self.fonts.get() }, warnings: &warnings)
        #expect(output.mediaType == format.mediaType && warnings.isEmpty)
        let head = String(decoding: output.bytes.prefix(64), as: UTF8.self)
        switch format {
        case .svg: #expect(head.contains("<svg") && output.mediaType == "image/svg+xml")
        case .html:
            #expect(head.lowercased().hasPrefix("<!doctype html") && output.mediaType == "text/html; charset=utf-8")
        case .png:
            #expect(output.bytes.prefix(8) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            #expect(pngSize(output.bytes).map { [$0.0, $0.1] } == [2 * side, 2 * side], "drawn at scale 2")
        }
    }

    @Test func svgAndHTMLNeverAskForFonts() throws {
        var warnings: [GraphicsError] = []
        let drawing = try Self.drawing().drawing
        for format in [WidgetFormat.svg, .html] {
            _ = try format.encode(
                drawing, fonts: { throw GraphicsError(.fontMissing, "no fonts here") }, warnings: &warnings)
        }
        #expect(throws: GraphicsError.self) {
            try WidgetFormat.png.encode(
                drawing, fonts: { throw GraphicsError(.fontMissing, "no fonts here") }, warnings: &warnings)
        }
    }

    @Test(arguments: SceneFormat.allCases)
    func sceneFormatsWriteTheirKindOfFile(_ format: SceneFormat) async throws {
        let environment = Environment {
            ImageTrackingConfiguration("poster.png") { WidgetConfiguration(.top) { .text("Poster") } }
        }
        let output = try await TexturedScene(environment).encode(as: format, scale: 0.25)
        #expect(output.mediaType == format.mediaType)
        switch format {
        case .json, .gltf: #expect(try JSONSerialization.jsonObject(with: Data(output.bytes)) is [String: Any])
        case .glb: #expect(Array(output.bytes.prefix(4)) == Array("glTF".utf8))
        case .usdz:
            #expect(Array(output.bytes.prefix(2)) == Array("PK".utf8) && output.mediaType == "model/vnd.usdz+zip")
        }
    }

    @Test func qrCodesAsSVGAndPNG() throws {
        let code = try QRCode(encoding: "https://arvis.example/s/museum/tour", errorCorrection: .medium)
        let svg = try code.encode(as: .svg, moduleSize: 4, fonts: { throw GraphicsError(.fontMissing, "unused") })
        #expect(String(decoding: svg.bytes, as: UTF8.self).contains("<svg") && svg.mediaType == "image/svg+xml")
        let png = try code.encode(as: .png, moduleSize: 3, fonts: { try Self.fonts.get() })
        #expect(png.mediaType == "image/png" && pngSize(png.bytes)?.0 == (code.size + 2 * QRCode.quietZone) * 3)
    }
}

/// The width and height in a PNG's IHDR chunk.
private func pngSize(_ bytes: [UInt8]) -> (Int, Int)? {
    guard bytes.count >= 24 else { return nil }
    let number = { (offset: Int) in bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
    return (number(16), number(20))
}
