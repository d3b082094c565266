import ARVisGraphics
import ARVisSpec
import ARVisSupport
import ARVisTestSupport
import Foundation
import Testing

@testable import ARVisRender

struct TextBlockTests {
    static var context: RenderContext? {
        (try? FontLibrary.standard()).map { RenderContext(fonts: $0, options: RenderOptions()) }
    }

    @Test(arguments: [40.0, 80, 150, 300, 1000])
    func wrappedLinesFitTheirWidth(width: Double) throws {
        let context = try #require(Self.context)
        let block = TextBlock(
            markdown:
                "Although educated in **traditional painting**, Ensor quickly stepped off that path and began to develop a revolutionary style.",
            style: TextStyle())
        let lines = block.layout(width: width, context)
        #expect(lines.lines.allSatisfy { $0.width <= width + 1e-9 })
        #expect(lines.width <= width)
        // Words are not broken when the widest word fits.
        if width >= block.longestWordWidth(context) {
            let words = lines.lines.flatMap { $0.pieces.flatMap { $0.text.split(separator: " ").map(String.init) } }
            #expect(words.contains("revolutionary"))
        }
    }

    /// Breaking is linear: ten times the text takes about ten times as long, not a hundred times
    /// (the old breaker's growth), and every line fits. Time is compared with time in the same run,
    /// so neither a slow or loaded machine nor a sanitizer changes the verdict.
    @Test(arguments: [(piece: "a", count: 200_000), (piece: "word ", count: 400_000)])
    func hugeTextLaysOutInLinearTime(piece: String, count: Int) async throws {
        let text = String(repeating: piece, count: count)
        let tenth = String(repeating: piece, count: count / 10)
        // Seconds of layout: off the pool's threads, timed there; the fastest of a few runs each.
        let laidOut = try await offThePool("huge text") {
            () -> (growth: Double, lines: TextBlock.Lines)? in
            guard let context = Self.context else { return nil }
            let small = (0..<3).map { _ in Self.timedLayout(tenth, context).elapsed }.min() ?? .zero
            let runs = (0..<2).map { _ in Self.timedLayout(text, context) }
            let large = runs.map(\.elapsed).min() ?? .zero
            return (large / small, runs[0].lines)
        }
        let (growth, lines) = try #require(laidOut)
        #expect(growth < 40, "ten times the text took \(growth) times as long")
        #expect(lines.lines.allSatisfy { $0.width <= 300 + 1e-9 })
        #expect(
            lines.lines.map { $0.pieces.map(\.text).joined() }.joined(separator: piece == "a" ? "" : " ")
                == text.trimmingCharacters(in: .whitespaces))
        #expect(lines.lines.allSatisfy { $0.pieces.count <= 2 })
    }

    /// A fresh block's layout of `text` at 300 points, and how long it took.
    private static func timedLayout(_ text: String, _ context: RenderContext) -> (
        elapsed: Duration, lines: TextBlock.Lines
    ) {
        let block = TextBlock(plain: text, style: TextStyle())
        var lines = TextBlock.Lines(lines: [], width: 0)
        let elapsed = ContinuousClock().measure { lines = block.layout(width: 300, context) }
        return (elapsed, lines)
    }

    /// A hyphen between letters is a place to break, as on iOS; a minus sign before a number is not.
    @Test func aLongHyphenatedNameBreaksAfterAHyphen() throws {
        #expect(TextBlock.tokens("Saint-Rémy-de-Provence") == ["Saint-", "Rémy-", "de-", "Provence"])
        #expect(TextBlock.tokens("-5 and a - b, x-") == ["-5", " ", "and", " ", "a", " ", "-", " ", "b,", " ", "x-"])
        let context = try #require(Self.context)
        let block = TextBlock(plain: "Saint-Rémy-de-Provence", style: TextStyle())
        let lines = block.layout(width: 130, context).lines.map { $0.pieces.map(\.text).joined() }
        #expect(lines.count == 2 && lines.allSatisfy { $0.last == "-" || $0 == lines.last }, "\(lines)")
        #expect(lines.joined() == "Saint-Rémy-de-Provence")
    }

    @Test func skinToneModifiersAreDroppedNotBoxed() throws {
        let context = try #require(Self.context)
        let font = context.fonts.font(for: Theme.face(weight: .regular, design: .rounded))
        #expect(
            TextBlock.substitutingUncovered("ok \u{1F44D}\u{1F3FD} \u{1F449}\u{1F3FF}", font.withFallback(nil))
                == "ok \u{1F44D} ☛")
        let textOnly = font.withFallback(font.fallback?.font)
        #expect(
            TextBlock.substitutingUncovered("ok \u{1F44D}\u{1F3FD} \u{1F449}\u{1F3FF}", textOnly)
                == (font.fallback == nil ? "ok \u{1F44D} ☛" : "ok \u{1F44D} \u{1F449}"))
        if font.colorEmoji != nil {
            #expect(
                TextBlock.substitutingUncovered("ok \u{1F44D}\u{1F3FD} \u{1F449}\u{1F3FF}", font)
                    == "ok \u{1F44D}\u{1F3FD} \u{1F449}\u{1F3FF}", "a colour emoji font keeps skin tones")
        }
    }

    /// With a colour emoji font installed (`.ci/run` installs Debian's fonts-noto-color-emoji), an
    /// emoji is measured by its picture's advance, modifiers and joiners included.
    @Test(
        .enabled(
            if: Self.context?.fonts.colorEmojiName != nil,
            "skipped: no colour emoji font installed (apt-get install fonts-noto-color-emoji)"))
    func colourEmojiAreMeasuredWhole() throws {
        let context = try #require(Self.context)
        let font = context.fonts.font(for: .regular)
        let emoji = try #require(font.emoji(for: "👨‍👩‍👧"))
        #expect(emoji.glyphs.count == 1)
        #expect(abs(font.width(of: "👨‍👩‍👧", size: 20) - emoji.advance * 20) < 1e-9)
        #expect(abs(font.width(of: "a👉🏻", size: 20) - font.width(of: "a", size: 20) - emoji.advance * 20) < 1e-9)
    }

    @Test func lineLimitEndsInAnEllipsis() throws {
        let context = try #require(Self.context)
        let block = TextBlock(plain: "one two three four five six seven eight nine ten", style: TextStyle(lineLimit: 1))
        let lines = block.layout(width: 80, context)
        #expect(lines.lines.count == 1)
        #expect(lines.lines[0].pieces.last?.text == "…")
        #expect(lines.lines[0].width <= 80)
    }

    @Test func heightCountsLinesAndNewlines() throws {
        let context = try #require(Self.context)
        let block = TextBlock(plain: "a\nb\n\nc", style: TextStyle(size: 10))
        let size = block.size(for: .ideal, in: context)
        #expect(abs(size.height - 4 * block.lineHeight(context)) < 1e-9)
    }

    @Test func emojiTheFontLacksAreReplacedByDejaVuSymbols() throws {
        let context = try #require(Self.context)
        let font = context.fonts.font(for: .regular).withFallback(nil)
        #expect(TextBlock.substitutingUncovered("Current Model \u{1F449}", font) == "Current Model ☛")
        #expect(TextBlock.substitutingUncovered("1\u{FE0F}\u{20E3} first", font) == "1. first")
        #expect(TextBlock.substitutingUncovered("plain", font) == "plain")
    }

    /// With a symbol font installed (`.ci/run` installs Debian's fonts-symbola), emoji DejaVu lacks
    /// are measured and drawn from it instead of standing in for DejaVu symbols.
    @Test(
        .enabled(
            if: Self.context?.fonts.fallbackName != nil,
            "skipped: no symbol font installed (apt-get install fonts-symbola)"))
    func emojiComeFromTheFallbackFontWhenOneIsInstalled() throws {
        let context = try #require(Self.context)
        let withEmoji = context.fonts.font(for: .regular)
        let font = withEmoji.withFallback(withEmoji.fallback?.font)
        let rocket: Unicode.Scalar = "\u{1F680}"
        #expect(font.glyph(for: rocket) == 0 && font.covers(rocket))
        let fallback = try #require(font.fallback(for: rocket))
        let expected = fallback.advance(ofGlyph: fallback.glyph(for: rocket)) * 20 / fallback.unitsPerEm
        #expect(abs(font.width(of: "\u{1F680}", size: 20) - expected) < 1e-9)
        #expect(font.fallback(for: "a") == nil, "DejaVu keeps what it has")
        // Without the fallback the rocket measures as DejaVu's missing-glyph box.
        let widths = [font, font.withFallback(nil)].map { $0.width(of: "\u{1F680}", size: 20) }
        #expect(widths[0] != widths[1])
    }
}
