import Foundation
import Testing

@testable import ARVisGraphics

/// Colour emoji from Debian's Noto Color Emoji: ligatures for sequences, PNG pictures per glyph.
struct ColorEmojiFontTests {
    static let font: ColorEmojiFont? = FileManager.default.contents(
        atPath: "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf"
    ).flatMap { ColorEmojiFont(bytes: [UInt8]($0)) }

    static let installed = font != nil

    @Test(
        .enabled(if: installed, "fonts-noto-color-emoji is not installed"),
        arguments: ["👉🏻", "1️⃣", "#️⃣", "👨‍👩‍👧", "🇫🇷", "❤️", "☀️", "😀", "🏴󠁧󠁢󠁳󠁣󠁴󠁿"])
    func sequencesBecomeOnePicture(_ emoji: String) throws {
        let font = try #require(Self.font)
        let character = try #require(emoji.first)
        let cluster = try #require(font.cluster(character))
        #expect(cluster.glyphs.count == 1, "\(emoji) is one ligature")
        let bitmap = try #require(font.bitmap(ofGlyph: cluster.glyphs[0]))
        let picture = try RasterImage(decoding: bitmap.png)
        #expect(picture.width > 100 && picture.height > 100)
    }

    @Test(.enabled(if: installed, "fonts-noto-color-emoji is not installed"))
    func skinTonesKeepTheirOwnPicture() throws {
        let font = try #require(Self.font)
        let plain = try #require(font.cluster("👉"))
        let light = try #require(font.cluster("👉🏻"))
        let dark = try #require(font.cluster("👉🏿"))
        #expect(Set([plain.glyphs, light.glyphs, dark.glyphs]).count == 3)
    }

    @Test(.enabled(if: installed, "fonts-noto-color-emoji is not installed"), arguments: ["a", "1", "☀", "©", "♥"])
    func textPresentationIsLeftToTheTextFont(_ text: String) throws {
        let font = try #require(Self.font)
        let character = try #require(text.first)
        #expect(font.cluster(character) == nil)
    }

    @Test func damagedFontsAreRefused() {
        #expect(ColorEmojiFont(bytes: Array(repeating: 0, count: 64)) == nil)
        #expect(ColorEmojiFont(bytes: []) == nil)
    }
}
