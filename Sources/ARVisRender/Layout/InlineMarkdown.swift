/// A stretch of text with one inline style.
struct StyledSpan: Hashable {
    var text: String
    var isBold = false
    var isItalic = false
    var isCode = false
    var link: String?
}

/// Inline Markdown as SwiftUI's `Text` reads it: `**bold**`, `*italic*`, `` `code` ``, `[text](url)`,
/// `__bold__`, `_italic_` and backslash escapes. Unmatched markers stay literal.
enum InlineMarkdown {
    static func parse(_ source: String) -> [StyledSpan] {
        var parser = Parser(characters: Array(source))
        parser.run()
        return parser.spans
    }

    private struct Parser {
        let characters: [Character]
        var index = 0
        var bold = false, italic = false
        var spans: [StyledSpan] = []
        var pending = ""

        init(characters: [Character]) { self.characters = characters }

        mutating func run() {
            while index < characters.count {
                let character = characters[index]
                if character == "\\", index + 1 < characters.count, characters[index + 1].isPunctuation || characters[index + 1].isSymbol {
                    pending.append(characters[index + 1])
                    index += 2
                } else if character == "`", let end = find("`", from: index + 1) {
                    flush()
                    spans.append(StyledSpan(text: String(characters[(index + 1)..<end]), isBold: bold, isItalic: italic, isCode: true))
                    index = end + 1
                } else if character == "[", let (text, url, end) = link(at: index) {
                    flush()
                    for var span in InlineMarkdown.parse(text) {
                        span.isBold = span.isBold || bold
                        span.isItalic = span.isItalic || italic
                        span.link = url
                        spans.append(span)
                    }
                    index = end
                } else if (character == "*" || character == "_"), emphasis(character) {
                    continue
                } else {
                    pending.append(character)
                    index += 1
                }
            }
            flush()
        }

        /// Handles a run of `*` or `_` at `index`; returns `false` if it is literal text.
        mutating func emphasis(_ marker: Character) -> Bool {
            var count = 0
            while index + count < characters.count, characters[index + count] == marker { count += 1 }
            if marker == "_" {
                let before = index > 0 ? characters[index - 1] : " "
                let after = index + count < characters.count ? characters[index + count] : " "
                if before.isLetter || before.isNumber, after.isLetter || after.isNumber { return false }
            }
            let closing = (count >= 3 && (bold || italic)) || (count == 2 && bold) || (count == 1 && italic)
            if !closing && !hasClosing(marker, count: min(count, 3)) { return false }
            flush()
            switch min(count, 3) {
            case 3: bold.toggle(); italic.toggle()
            case 2: bold.toggle()
            default: italic.toggle()
            }
            index += min(count, 3)
            if count > 3 { pending.append(String(repeating: marker, count: count - 3)) ; index += count - 3 }
            return true
        }

        func hasClosing(_ marker: Character, count: Int) -> Bool {
            var position = index + count
            while position < characters.count {
                if characters[position] == marker {
                    var run = 0
                    while position + run < characters.count, characters[position + run] == marker { run += 1 }
                    if run >= count, position > index + count { return true }
                    position += run
                } else {
                    position += 1
                }
            }
            return false
        }

        func find(_ character: Character, from start: Int) -> Int? {
            var position = start
            while position < characters.count {
                if characters[position] == character { return position }
                position += 1
            }
            return nil
        }

        func link(at start: Int) -> (String, String, Int)? {
            var depth = 0, position = start
            while position < characters.count {
                if characters[position] == "[" { depth += 1 }
                if characters[position] == "]" {
                    depth -= 1
                    if depth == 0 { break }
                }
                position += 1
            }
            guard position + 1 < characters.count, characters[position + 1] == "(",
                  let close = find(")", from: position + 2) else { return nil }
            let text = String(characters[(start + 1)..<position])
            let url = String(characters[(position + 2)..<close]).trimmingSpaces()
            return (text, url, close + 1)
        }

        mutating func flush() {
            guard !pending.isEmpty else { return }
            spans.append(StyledSpan(text: pending, isBold: bold, isItalic: italic))
            pending = ""
        }
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    func trimmingSpaces() -> String {
        var characters = Substring(self)
        while characters.first == " " || characters.first == "\t" { characters.removeFirst() }
        while characters.last == " " || characters.last == "\t" { characters.removeLast() }
        return String(characters)
    }
}
