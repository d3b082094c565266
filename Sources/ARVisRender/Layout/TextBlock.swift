import ARVisGraphics
import ARVisSpec
import ARVisSupport

/// The typographic settings of a text block.
struct TextStyle: Hashable {
    var size = Theme.bodySize
    var weight: FontWeight = .regular
    var design: FontDesign = .rounded
    var color = Theme.primary
    var alignment: TextAlignment = .leading
    /// At most this many lines; the last one ends in an ellipsis when text is cut.
    var lineLimit: Int?

    init(
        size: Double = Theme.bodySize, weight: FontWeight = .regular, design: FontDesign = .rounded,
        color: DrawingColor = Theme.primary, alignment: TextAlignment = .leading, lineLimit: Int? = nil
    ) {
        (self.size, self.weight, self.design, self.color, self.alignment, self.lineLimit) = (
            size, weight, design, color, alignment, lineLimit
        )
    }

    init(_ fontStyle: FontStyle?, alignment: TextAlignment?) {
        self.init(alignment: alignment ?? .leading)
        guard let fontStyle else { return }
        size = fontStyle.size
        weight = fontStyle.resolvedWeight
        design = fontStyle.resolvedDesign
        if let color = fontStyle.color { self.color = Theme.color(color) }
    }
}

/// Wrapped, styled text: inline Markdown broken into lines with the fonts' real advance widths.
final class TextBlock: LayoutNode {
    let spans: [StyledSpan]
    let style: TextStyle
    private var cache: [Double: Lines] = [:]

    /// One laid-out line: its pieces, natural width.
    struct Line {
        var pieces: [Piece] = []
        var width = 0.0
    }

    /// A word or space in one face and colour.
    struct Piece {
        var text: String
        var x: Double
        var width: Double
        var face: FontFace
        var link: String?
        var isSpace: Bool
    }

    struct Lines {
        var lines: [Line]
        var width: Double
    }

    init(markdown: String, style: TextStyle) {
        self.spans = InlineMarkdown.parse(markdown)
        self.style = style
    }

    convenience init(plain: String, style: TextStyle) {
        self.init(spans: [StyledSpan(text: plain)], style: style)
    }

    /// Links that ``LinkPolicy`` refuses are drawn as plain text; `iARVis:` links are kept and
    /// resolved when drawn (``RenderContext/linkTarget(_:)``).
    init(spans: [StyledSpan], style: TextStyle) {
        self.spans = spans.map { span in
            var checked = span
            checked.link = span.link.flatMap { IARVisLink.isIARVis($0) ? $0 : LinkPolicy.navigable($0) }
            return checked
        }
        self.style = style
    }

    func lineHeight(_ context: RenderContext) -> Double {
        let font = context.fonts.font(for: Theme.face(weight: style.weight, design: style.design))
        return (font.ascender - font.descender + font.lineGap) / font.unitsPerEm * style.size
    }

    func ascent(_ context: RenderContext) -> Double {
        let font = context.fonts.font(for: Theme.face(weight: style.weight, design: style.design))
        return font.ascender / font.unitsPerEm * style.size
    }

    func size(for proposal: Proposal, in context: RenderContext) -> Size {
        let laid = layout(width: proposal.width, context)
        return Size(width: laid.width, height: Double(laid.lines.count) * lineHeight(context))
    }

    func draw(in rect: Rect, context: RenderContext) -> [Element] {
        let laid = layout(width: rect.width + 0.001, context)
        let height = lineHeight(context)
        let ascent = ascent(context)
        var elements: [Element] = []
        for (index, line) in laid.lines.enumerated() {
            let offset: Double =
                switch style.alignment {
                case .leading: 0
                case .center: (rect.width - line.width) / 2
                case .trailing: rect.width - line.width
                }
            let baseline = rect.minY + Double(index) * height + ascent
            elements += runs(line, x: rect.minX + offset, baseline: baseline, context)
        }
        return elements
    }

    /// Text runs for a line, merging neighbouring pieces of the same face and link.
    private func runs(_ line: Line, x: Double, baseline: Double, _ context: RenderContext) -> [Element] {
        var elements: [Element] = []
        var index = 0
        let pieces = line.pieces
        while index < pieces.count {
            var end = index + 1
            var text = pieces[index].text
            while end < pieces.count, pieces[end].face == pieces[index].face, pieces[end].link == pieces[index].link {
                text += pieces[end].text
                end += 1
            }
            let link = context.linkTarget(pieces[index].link)
            let color = link == nil ? style.color : Theme.accent
            let run = Element.text(
                TextRun(
                    text, at: Point(x + pieces[index].x, baseline), face: pieces[index].face, size: style.size,
                    color: color))
            elements.append(link.map { .group(Group([run], link: $0)) } ?? run)
            index = end
        }
        return elements
    }

    /// The width of the widest word, the narrowest the block gets without breaking inside words.
    func longestWordWidth(_ context: RenderContext) -> Double {
        var widest = 0.0
        for span in spans {
            let font = context.fonts.font(for: face(for: span))
            for token in Self.tokens(span.text) where token != "\n" && token.first != " " {
                widest = max(widest, font.width(of: token, size: style.size))
            }
        }
        return widest
    }

    private func face(for span: StyledSpan) -> FontFace {
        Theme.face(
            weight: span.isBold ? .bold : style.weight, design: span.isCode ? .monospaced : style.design,
            italic: span.isItalic)
    }

    /// Lines for a width (`nil`: no wrapping), cached per width.
    ///
    /// Greedy breaking gives the same lines for every width between the widest line it made and
    /// the width it was given, so drawing at the size a layout reported reuses that layout.
    func layout(width: Double?, _ context: RenderContext) -> Lines {
        let key = width ?? -1
        if let cached = cache[key] { return cached }
        if let width,
            let reusable = cache.first(where: { ($0.key < 0 || $0.key >= width) && $0.value.width <= width })?.value
        {
            return reusable
        }
        let result = breakLines(maxWidth: width ?? .infinity, context)
        cache[key] = result
        return result
    }

    private func breakLines(maxWidth: Double, _ context: RenderContext) -> Lines {
        var builder = LineBuilder(maxWidth: maxWidth, size: style.size)
        for span in spans {
            let face = face(for: span)
            let font = context.fonts.font(for: face)
            for token in Self.tokens(Self.substitutingUncovered(span.text, font)) {
                builder.add(token, face: face, font: font, link: span.link)
            }
        }
        var lines = builder.finish()
        if let limit = style.lineLimit, lines.count > limit {
            lines = Array(lines.prefix(limit))
            lines[limit - 1] = ellipsized(lines[limit - 1], maxWidth: maxWidth, context)
        }
        return Lines(lines: lines, width: min(maxWidth, lines.map(\.width).max() ?? 0))
    }

    /// The line shortened to end in "…" within `maxWidth`.
    func ellipsized(_ line: Line, maxWidth: Double, _ context: RenderContext) -> Line {
        guard var last = line.pieces.last else { return line }
        let font = context.fonts.font(for: last.face)
        let ellipsis = font.width(of: "…", size: style.size)
        var result = line
        while result.width + ellipsis > maxWidth, !result.pieces.isEmpty {
            last = result.pieces.removeLast()
            result.width = last.x
            if last.text.count > 1 {
                last.text.removeLast()
                last.width = font.width(of: last.text, size: style.size)
                result.pieces.append(last)
                result.width = last.x + last.width
            }
        }
        let face = result.pieces.last?.face ?? last.face
        result.pieces.append(Piece(text: "…", x: result.width, width: ellipsis, face: face, link: nil, isSpace: false))
        result.width += ellipsis
        return result
    }

    /// Emoji and pictographs DejaVu lacks, and the DejaVu symbols that stand in for them when no
    /// fallback font (Symbola, Noto Sans Symbols 2) is installed to draw them.
    static let substitutes: [Unicode.Scalar: String] = [
        "\u{1F449}": "☛", "\u{1F448}": "☚", "\u{1F446}": "☝", "\u{1F447}": "↓", "\u{2B50}": "★", "\u{1F31F}": "★",
        "\u{2705}": "✔", "\u{274C}": "✘", "\u{2764}": "♥", "\u{1F4A1}": "☀", "\u{1F4CD}": "⚑", "\u{1F3B5}": "♪",
        "\u{1F3B6}": "♫", "\u{1F4DE}": "☎", "\u{2709}": "✉", "\u{1F680}": "➚", "\u{1F525}": "♨", "\u{26A0}": "⚠",
        "\u{20E3}": ".", "\u{1F600}": "☺", "\u{1F642}": "☺", "\u{1F641}": "☹",
    ]

    /// The text with characters the font cannot draw replaced by a stand-in, and emoji presentation
    /// selectors dropped, so measuring and drawing agree in every output.
    static func substitutingUncovered(_ text: String, _ font: TrueTypeFont) -> String {
        guard text.unicodeScalars.contains(where: { isEmojiModifier($0) || $0.value > 0x2000 && !font.covers($0) })
        else {
            return text
        }
        if font.mayHoldEmoji(text) {
            // Emoji the colour emoji font draws stay whole, modifiers and joiners included.
            return text.map { font.emoji(for: $0) != nil ? String($0) : substitutingScalars(String($0), font) }
                .joined()
        }
        return substitutingScalars(text, font)
    }

    /// Presentation selectors, joiners and skin-tone modifiers (U+1F3FB–1F3FF): they change how an
    /// emoji looks in a colour emoji font; drawn alone they would be boxes or swatches.
    private static func isEmojiModifier(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value == 0xFE0F || scalar.value == 0x200D || (0x1F3FB...0x1F3FF).contains(scalar.value)
    }

    /// The text with emoji modifiers dropped and scalars the font lacks replaced by their stand-ins.
    private static func substitutingScalars(_ text: String, _ font: TrueTypeFont) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isEmojiModifier(scalar) { continue }
            if scalar.value > 0x2000, !font.covers(scalar), let substitute = substitutes[scalar] {
                result.append(contentsOf: substitute.unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// Words, runs of spaces (tabs become spaces) and newlines, split at ASCII white space in one
    /// pass over the UTF-8 bytes. A hyphen between two letters ends a word too (it stays with the
    /// part before it), so "Saint-Rémy-de-Provence" may break after a hyphen, as iOS breaks it
    /// (Unicode's line breaking, UAX #14); "-5" and "a - b" do not break there.
    static func tokens(_ text: String) -> [Substring] {
        var tokens: [Substring] = []
        let utf8 = text.utf8
        var start = utf8.startIndex
        var startIsSpace = false
        var hasTab = false
        func flush(_ end: String.Index) {
            guard start < end else { return }
            let token = text[start..<end]
            tokens.append(hasTab ? Substring(String(repeating: " ", count: token.utf8.count)) : token)
            hasTab = false
        }
        var index = utf8.startIndex
        while index < utf8.endIndex {
            let byte = utf8[index]
            let next = utf8.index(after: index)
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                flush(index)
                if byte == UInt8(ascii: "\n") || next == utf8.endIndex || utf8[next] != UInt8(ascii: "\n") {
                    tokens.append("\n")
                }
                start = next
            } else {
                let isSpace = byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
                if start < index && isSpace != startIsSpace {
                    flush(index)
                    start = index
                }
                if start == index { startIsSpace = isSpace }
                if byte == UInt8(ascii: "\t") { hasTab = true }
                if byte == UInt8(ascii: "-"), start < index, next < utf8.endIndex,
                    Self.isLetter(utf8[utf8.index(before: index)]), Self.isLetter(utf8[next])
                {
                    flush(next)
                    start = next
                }
            }
            index = next
        }
        flush(utf8.endIndex)
        return tokens
    }

    /// Whether a UTF-8 byte belongs to a letter: an ASCII letter, or any byte of a character
    /// beyond ASCII.
    private static func isLetter(_ byte: UInt8) -> Bool {
        byte >= 0x80 || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }
}
