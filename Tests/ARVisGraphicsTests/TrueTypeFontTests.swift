import ARVisSupport
import ARVisTestSupport
import Foundation
import Testing

@testable import ARVisGraphics

struct TrueTypeFontTests {
    static let fonts = try? FontLibrary.standard()

    /// The signed area an outline encloses (holes subtract), from its flattened polygons.
    static func enclosedArea(_ outline: Path) -> Double {
        var twice = 0.0
        for polyline in outline.flattened(tolerance: 0.5) {
            let points = polyline.points
            for index in points.indices {
                let a = points[index]
                let b = points[(index + 1) % points.count]
                twice += a.x * b.y - b.x * a.y
            }
        }
        return twice / 2
    }
    /// DejaVu Sans Book itself, whichever sans-serif face the library chose.
    static let dejaVu = fonts.flatMap { FileManager.default.contents(atPath: $0.directory + "/DejaVuSans.ttf") }
        .flatMap { TrueTypeFont(bytes: [UInt8]($0)) }

    @Test func readsMetricsAndCharacterMapLikeFontTools() throws {
        let font = try #require(Self.dejaVu)
        // Values read from DejaVuSans.ttf with fontTools.
        #expect(font.unitsPerEm == 2048)
        #expect(font.ascender == 1901 && font.descender == -483 && font.lineGap == 0)
        #expect(font.glyph(for: "A") == 36 && font.glyph(for: "W") == 58 && font.glyph(for: "€") == 2948)
        #expect(font.glyph(for: "😀") == 5857)  // format 12 subtable, beyond the BMP
        #expect(font.advance(ofGlyph: 36) == 1401 && font.advance(ofGlyph: 58) == 2025)
        #expect(abs(font.width(of: "Hello, world", size: 17) - 100.705078125) < 1e-9)
        // With the kern table's pairs (A–V −131, T–o −348 design units), as fontTools sums them.
        #expect(abs(font.width(of: "AVATAR To", size: 17) - 87.19970703125) < 1e-9)
        #expect(!font.covers("\u{E000}"))
    }

    /// The enclosed area of a glyph's flattened outline matches fontTools' AreaPen within 0.5 %.
    @Test(arguments: [("A", 678_360.0), ("Å", 810_845.75), ("o", 538_210.25)])
    func outlinesEncloseTheRightArea(character: Character, expected: Double) throws {
        let font = try #require(Self.dejaVu)
        let outline = font.outline(ofGlyph: font.glyph(for: character.unicodeScalars.first!))
        let area = TrueTypeFontTests.enclosedArea(outline)
        #expect(abs(abs(area) - expected) / expected < 0.005)
    }

    @Test func rejectsBytesThatAreNotAFontWithoutCrashing() throws {
        #expect(TrueTypeFont(bytes: []) == nil)
        #expect(TrueTypeFont(bytes: Array("not a font at all, just text".utf8)) == nil)
        let path = try #require(Self.fonts).directory + "/DejaVuSans.ttf"
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        for length in [12, 100, 1000, bytes.count / 2] {
            _ = TrueTypeFont(bytes: Array(bytes.prefix(length)))
        }
        // Random corruption must never trap, whatever the reader makes of it.
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<20 {
            var damaged = bytes
            for _ in 0..<200 {
                damaged[Int.random(in: 0..<damaged.count, using: &generator)] = UInt8.random(
                    in: 0...255, using: &generator)
            }
            if let font = TrueTypeFont(bytes: damaged) {
                for code in [65, 66, 0x20AC, 0x1F600] {
                    _ = font.outline(ofGlyph: font.glyph(for: Unicode.Scalar(code)!))
                }
            }
        }
    }

    @Test func missingFontDirectoryIsAClearError() {
        #expect {
            try FontLibrary(directory: "/nonexistent/fonts")
        } throws: { error in
            guard let error = error as? GraphicsError else { return false }
            return error.code == .fontMissing && error.message.contains("fonts-dejavu-core")
        }
    }
}

/// OpenType fonts with `CFF ` outlines (Debian's `fonts-inter`), read like fontTools reads them.
struct CFFOutlineTests {
    static let inter: [String: TrueTypeFont] = Dictionary(
        uniqueKeysWithValues: ["Inter-Regular.otf", "Inter-SemiBold.otf"].compactMap { name in
            FileManager.default.contents(atPath: "/usr/share/fonts/opentype/inter/" + name)
                .flatMap { TrueTypeFont(bytes: [UInt8]($0)) }.map { (name, $0) }
        })

    /// Net enclosed areas from fontTools' AreaPen on Inter 4.0 beta 7, within 0.5 %.
    @Test(
        .enabled(if: inter.count == 2, "fonts-inter is not installed"),
        arguments: [
            ("Inter-Regular.otf", "a", 1_002_465.55), ("Inter-Regular.otf", "8", 1_317_071.7),
            ("Inter-Regular.otf", "&", 1_412_664.3), ("Inter-Regular.otf", "@", 2_167_448.8),
            ("Inter-SemiBold.otf", "B", 2_031_690.05), ("Inter-SemiBold.otf", "o", 1_282_455.2),
        ])
    func cubicOutlinesEncloseTheRightArea(file: String, character: Character, expected: Double) throws {
        let font = try #require(Self.inter[file])
        let outline = font.outline(ofGlyph: font.glyph(for: character.unicodeScalars.first!))
        let area = TrueTypeFontTests.enclosedArea(outline)
        #expect(abs(abs(area) - expected) / expected < 0.005, "\(area)")
    }

    @Test(.enabled(if: inter.count == 2, "fonts-inter is not installed"))
    func readsOpenTypeMetrics() throws {
        let font = try #require(Self.inter["Inter-Regular.otf"])
        #expect(font.unitsPerEm == 2816 && font.ascender == 2728 && font.descender == -680)
        #expect(abs(font.width(of: "Hello, world", size: 2816) - 15752) < 1e-9)
    }

    @Test func damagedCompactFontTablesAreRefused() {
        // An OpenType header naming a CFF table that is not there.
        var bytes: [UInt8] = [0x4F, 0x54, 0x54, 0x4F, 0, 1, 0, 16, 0, 0, 0, 0]
        bytes += Array("CFF ".utf8) + [0, 0, 0, 0, 0, 0, 0, 28, 0, 0, 0, 4] + [1, 0, 4, 2]
        #expect(TrueTypeFont(bytes: bytes) == nil)
    }
}
