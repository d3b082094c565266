import ARVisSupport

/// A stretch of text with one inline style.
public struct StyledSpan: Sendable, Hashable {
    /// The text, with Markdown syntax removed.
    public var text: String
    /// Whether the text is bold.
    public var isBold: Bool
    /// Whether the text is italic.
    public var isItalic: Bool
    /// Whether the text is inline code.
    public var isCode: Bool
    /// The link target, as written; whether it may be followed is ``LinkPolicy``'s decision.
    public var link: String?

    /// Creates a span.
    public init(text: String, isBold: Bool = false, isItalic: Bool = false, isCode: Bool = false, link: String? = nil) {
        self.text = text
        self.isBold = isBold
        self.isItalic = isItalic
        self.isCode = isCode
        self.link = link
    }
}

/// Inline Markdown as SwiftUI's `Text` reads it: `**bold**`, `*italic*`, `` `code` ``, `[text](url)`,
/// `__bold__`, `_italic_` and backslash escapes. Unmatched markers stay literal.
///
/// Parsing takes time and memory linear in the text's length, however its brackets, parentheses
/// and markers are arranged: matching brackets and parentheses are found in one pass with a stack,
/// and emphasis closers with forward-only cursors.
///
/// ```swift
/// let spans = InlineMarkdown.parse("**Born** in [Ostend](https://example.org/ostend)")
/// spans[2].link   // "https://example.org/ostend"
/// ```
public enum InlineMarkdown {
    /// The spans of `source`, in order.
    public static func parse(_ source: String) -> [StyledSpan] {
        // Positions are stored in 32 bits; no text that large is Markdown anyone wrote.
        guard source.utf8.count < Int(Int32.max) else { return [StyledSpan(text: source)] }
        var parser = MarkdownParser(Array(source.utf8))
        parser.run()
        return parser.spans
    }

    /// Every link target in `source`, in order (a link nested in another's text counts as the outer one).
    public static func links(in source: String) -> [String] {
        var links: [String] = []
        for span in parse(source) {
            if let link = span.link, links.last != link { links.append(link) }
        }
        return links
    }
}

/// The parser's state over the UTF-8 bytes of the source (all Markdown syntax is ASCII).
private struct MarkdownParser {
    let bytes: [UInt8]
    /// For each `[`, the index of its matching `]`; for each `(`, its matching `)`; otherwise -1.
    let partner: [Int32]
    var index = 0
    var bold = false, italic = false
    var spans: [StyledSpan] = []
    var pending: [UInt8] = []
    /// The links being read: where each one's text ends, where its target ends, and the target.
    var openLinks: [(textEnd: Int, targetEnd: Int, url: String)] = []
    var closers: [UInt8: EmphasisClosers]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        partner = Self.partners(bytes)
        closers = [
            UInt8(ascii: "*"): EmphasisClosers(bytes, marker: UInt8(ascii: "*")),
            UInt8(ascii: "_"): EmphasisClosers(bytes, marker: UInt8(ascii: "_")),
        ]
    }

    /// Matching brackets and parentheses, found with one stack each; escaped ones do not count.
    static func partners(_ bytes: [UInt8]) -> [Int32] {
        var partner = [Int32](repeating: -1, count: bytes.count)
        var brackets: [Int32] = []
        var parentheses: [Int32] = []
        var position = 0
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: "\\"): position += 1
            case UInt8(ascii: "["): brackets.append(Int32(position))
            case UInt8(ascii: "("): parentheses.append(Int32(position))
            case UInt8(ascii: "]"):
                if let open = brackets.popLast() { partner[Int(open)] = Int32(position) }
            case UInt8(ascii: ")"):
                if let open = parentheses.popLast() { partner[Int(open)] = Int32(position) }
            default: break
            }
            position += 1
        }
        return partner
    }

    mutating func run() {
        while index < bytes.count {
            if let link = openLinks.last, index == link.textEnd {
                flush()
                index = link.targetEnd + 1
                openLinks.removeLast()
                continue
            }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\\"), index + 1 < bytes.count, Self.isASCIIPunctuation(bytes[index + 1]) {
                pending.append(bytes[index + 1])
                index += 2
            } else if byte == UInt8(ascii: "`"), let end = codeEnd(after: index) {
                flush()
                spans.append(
                    StyledSpan(
                        text: text(index + 1, end), isBold: bold, isItalic: italic, isCode: true,
                        link: openLinks.first?.url))
                index = end + 1
            } else if byte == UInt8(ascii: "["), let link = link(at: index) {
                flush()
                openLinks.append(link)
                index += 1
            } else if byte == UInt8(ascii: "*") || byte == UInt8(ascii: "_"), emphasis(byte) {
                continue
            } else {
                pending.append(byte)
                index += 1
            }
        }
        flush()
    }

    /// The closing backtick of a code span opened at `start`, if there is one before the enclosing link's text ends.
    func codeEnd(after start: Int) -> Int? {
        let limit = openLinks.last?.textEnd ?? bytes.count
        var position = start + 1
        while position < limit {
            if bytes[position] == UInt8(ascii: "`") { return position }
            position += 1
        }
        return nil
    }

    /// The link opened by the `[` at `start`: its text must be followed at once by `(target)`, with
    /// balanced parentheses inside the target.
    func link(at start: Int) -> (textEnd: Int, targetEnd: Int, url: String)? {
        let close = Int(partner[start])
        guard close > start, close + 1 < bytes.count, bytes[close + 1] == UInt8(ascii: "(") else { return nil }
        let targetEnd = Int(partner[close + 1])
        guard targetEnd > close, openLinks.last.map({ targetEnd < $0.textEnd }) ?? true else { return nil }
        let url = text(close + 2, targetEnd).trimmingSpaces()
        return (close, targetEnd, openLinks.first?.url ?? url)
    }

    /// Handles a run of `*` or `_` at `index`; returns `false` if it is literal text.
    mutating func emphasis(_ marker: UInt8) -> Bool {
        var count = 0
        while index + count < bytes.count, bytes[index + count] == marker { count += 1 }
        if marker == UInt8(ascii: "_"), isWordCharacter(before: index), isWordCharacter(at: index + count) {
            return false
        }
        let used = min(count, 3)
        let closing = (count >= 3 && (bold || italic)) || (count == 2 && bold) || (count == 1 && italic)
        if !closing && !(closers[marker]?.hasRun(after: index + used, atLeast: used) ?? false) { return false }
        flush()
        switch used {
        case 3:
            bold.toggle()
            italic.toggle()
        case 2: bold.toggle()
        default: italic.toggle()
        }
        index += used
        if count > 3 {
            pending.append(contentsOf: repeatElement(marker, count: count - 3))
            index += count - 3
        }
        return true
    }

    func isWordCharacter(before position: Int) -> Bool {
        guard position > 0 else { return false }
        var start = position - 1
        while start > 0, bytes[start] & 0xC0 == 0x80 { start -= 1 }
        return isWordCharacter(at: start)
    }

    /// Whether the character starting at `position` is a letter or digit (any non-ASCII character counts as one).
    func isWordCharacter(at position: Int) -> Bool {
        guard position < bytes.count else { return false }
        let byte = bytes[position]
        if byte >= 0x80 { return true }
        return (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }

    static func isASCIIPunctuation(_ byte: UInt8) -> Bool {
        (0x21...0x2F).contains(byte) || (0x3A...0x40).contains(byte) || (0x5B...0x60).contains(byte)
            || (0x7B...0x7E).contains(byte)
    }

    func text(_ start: Int, _ end: Int) -> String {
        String(decoding: bytes[start..<end], as: UTF8.self)
    }

    mutating func flush() {
        guard !pending.isEmpty else { return }
        spans.append(
            StyledSpan(
                text: String(decoding: pending, as: UTF8.self), isBold: bold, isItalic: italic,
                link: openLinks.first?.url))
        pending.removeAll(keepingCapacity: true)
    }
}

/// Answers "is there a run of at least n markers starting after position p?" for increasing p in
/// amortised constant time: one cursor per run length, each only moving forward.
private struct EmphasisClosers {
    /// The maximal runs of the marker: where each starts and how long it is.
    private let runs: [(start: Int, length: Int)]
    private var cursors = [0, 0, 0, 0]

    init(_ bytes: [UInt8], marker: UInt8) {
        var runs: [(start: Int, length: Int)] = []
        var position = 0
        while position < bytes.count {
            guard bytes[position] == marker else {
                position += 1
                continue
            }
            var length = 0
            while position + length < bytes.count, bytes[position + length] == marker { length += 1 }
            runs.append((position, length))
            position += length
        }
        self.runs = runs
    }

    /// Whether a run of at least `length` (1–3) markers starts after `position`, not inside the run at `position`.
    mutating func hasRun(after position: Int, atLeast length: Int) -> Bool {
        var cursor = cursors[length]
        while cursor < runs.count, runs[cursor].start <= position || runs[cursor].length < length { cursor += 1 }
        cursors[length] = cursor
        return cursor < runs.count
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    package func trimmingSpaces() -> String {
        var characters = Substring(self)
        while characters.first == " " || characters.first == "\t" { characters.removeFirst() }
        while characters.last == " " || characters.last == "\t" { characters.removeLast() }
        return String(characters)
    }
}
