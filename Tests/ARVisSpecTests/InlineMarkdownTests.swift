import ARVisSpec
import ARVisSupport
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
        #expect(InlineMarkdown.parse("[a](").map(\.text) == ["[a]("])
        #expect(InlineMarkdown.parse("").isEmpty)
    }

    @Test func linkTargetsKeepBalancedParentheses() {
        let spans = InlineMarkdown.parse("see [Ensor](https://en.wikipedia.org/wiki/James_Ensor_(painter)) now")
        #expect(spans.map(\.text) == ["see ", "Ensor", " now"])
        #expect(spans[1].link == "https://en.wikipedia.org/wiki/James_Ensor_(painter)")
    }

    @Test func aLinkInsideALinkTakesTheOuterTarget() {
        let spans = InlineMarkdown.parse("[a [b](https://inner) **c**](https://outer) d")
        #expect(spans.map(\.text) == ["a ", "b", " ", "c", " d"])
        #expect(spans.prefix(4).allSatisfy { $0.link == "https://outer" })
        #expect(spans[3].isBold && spans[4].link == nil)
        #expect(InlineMarkdown.links(in: "[x](http://a) and [y](mailto:b@c)") == ["http://a", "mailto:b@c"])
    }

    /// Hostile shapes that were quadratic (or exponential in memory) read in linear time: each is
    /// 200 000 characters, which took minutes before.
    @Test(arguments: [
        String(repeating: "[", count: 200_000), String(repeating: "[a](", count: 50_000),
        String(repeating: "[", count: 100_000) + String(repeating: "](x)", count: 25_000),
        String(repeating: "*a", count: 100_000), String(repeating: "_ ", count: 100_000),
        String(repeating: "`", count: 1) + String(repeating: "a", count: 200_000),
    ])
    func hostileTextsReadInLinearTime(text: String) {
        let clock = ContinuousClock()
        let elapsed = clock.measure { _ = InlineMarkdown.parse(text) }
        #expect(elapsed < .seconds(5), "took \(elapsed)")
        #expect(InlineMarkdown.parse(text).map(\.text).joined().count <= text.count)
    }
}

struct LinkPolicyTests {
    @Test(arguments: [
        "https://example.org", "http://x", "mailto:a@b.c", "page.html", "../up", "#top", "//cdn.example/x",
        "HTTPS://EXAMPLE.ORG",
    ])
    func followsWebMailAndRelativeLinks(url: String) {
        #expect(LinkPolicy.isNavigable(url))
        #expect(LinkPolicy.refusal(url) == nil)
    }

    @Test(arguments: [
        "javascript:alert(1)", "JavaScript:alert(1)", " javascript:alert(1)", "java\tscript:alert(1)",
        "java\nscript:x", "\u{01}javascript:x", "javascript&#58;alert(1)", "&#106;avascript:alert(1)",
        "&#x6A;avascript:x", "&#0000106avascript:x", "javascript&colon;x", "vbscript:msgbox", "VBScript:x",
        "data:text/html,<script>alert(1)</script>", "DATA:text/html;base64,PHNjcmlwdD4=", "file:///etc/passwd",
        "iARVis://openComponent?json=%7B%7D", "java\u{0}script:x",
    ])
    func refusesEverythingElse(url: String) {
        #expect(!LinkPolicy.isNavigable(url))
        #expect(LinkPolicy.refusal(url) != nil)
    }

    @Test func loadsWebAndInlineMediaOnly() {
        #expect(LinkPolicy.isLoadable("https://example.org/a.jpg"))
        #expect(LinkPolicy.isLoadable("data:image/png;base64,AAAA"))
        #expect(LinkPolicy.isLoadable("images/a.png"))
        #expect(!LinkPolicy.isLoadable("data:text/html,<b>"))
        #expect(!LinkPolicy.isLoadable("javascript:alert(1)"))
        #expect(!LinkPolicy.isLoadable("file:///etc/passwd"))
    }
}
