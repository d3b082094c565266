@testable import ARVisRender
import ARVisGraphics
import Testing

struct InlineMarkdownTests {
    @Test func readsBoldItalicCodeAndLinks() {
        let spans = InlineMarkdown.parse("**Born**: *1860* in `Ostend` — [map](https://example.org/m) ***both***")
        #expect(spans.map(\.text) == ["Born", ": ", "1860", " in ", "Ostend", " — ", "map", " ", "both"])
        #expect(spans[0].isBold && !spans[0].isItalic)
        #expect(spans[2].isItalic && spans[4].isCode)
        #expect(spans[6].link == "https://example.org/m")
        #expect(spans[8].isBold && spans[8].isItalic)
    }

    @Test func leavesUnmatchedMarkersAndSnakeCaseAlone() {
        #expect(InlineMarkdown.parse("2 * 3 = 6").map(\.text) == ["2 * 3 = 6"])
        #expect(InlineMarkdown.parse("file_name_here").map(\.text) == ["file_name_here"])
        #expect(InlineMarkdown.parse("\\*literal\\*").map(\.text) == ["*literal*"])
        #expect(InlineMarkdown.parse("[not a link]").map(\.text) == ["[not a link]"])
        #expect(InlineMarkdown.parse("").isEmpty)
    }
}

struct TextBlockTests {
    static var context: RenderContext? { (try? FontLibrary.standard()).map { RenderContext(fonts: $0, options: RenderOptions()) } }

    @Test(arguments: [40.0, 80, 150, 300, 1000])
    func wrappedLinesFitTheirWidth(width: Double) throws {
        let context = try #require(Self.context)
        let block = TextBlock(markdown: "Although educated in **traditional painting**, Ensor quickly stepped off that path and began to develop a revolutionary style.", style: TextStyle())
        let lines = block.layout(width: width, context)
        #expect(lines.lines.allSatisfy { $0.width <= width + 1e-9 })
        #expect(lines.width <= width)
        // Words are not broken when the widest word fits.
        if width >= block.longestWordWidth(context) {
            let words = lines.lines.flatMap { $0.pieces.filter { !$0.isSpace }.map(\.text) }
            #expect(words.contains("revolutionary"))
        }
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
        let font = context.fonts.font(for: .regular)
        #expect(TextBlock.substitutingUncovered("Current Model \u{1F449}", font) == "Current Model ☛")
        #expect(TextBlock.substitutingUncovered("1\u{FE0F}\u{20E3} first", font) == "1. first")
        #expect(TextBlock.substitutingUncovered("plain", font) == "plain")
    }
}
