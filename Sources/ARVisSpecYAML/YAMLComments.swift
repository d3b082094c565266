public import ARVisSpec
public import Foundation

/// Finds the comments of a YAML source, which a rewrite (`arvis fmt`, `arvis convert`) cannot keep.
public enum YAMLComments {
    /// The 1-based line numbers of the comments in `yaml`, whose value is `document`.
    ///
    /// A `#` at the start of a line or after a space begins a comment unless the text from it to the
    /// line's end is part of a string of the document (a quoted or block scalar that contains `#`).
    public static func lines(in yaml: Data, document: SpecDocument) -> [Int] {
        var candidates: [(line: Int, text: String)] = []
        for (index, line) in String(decoding: yaml, as: UTF8.self).split(
            separator: "\n", omittingEmptySubsequences: false
        ).enumerated() {
            if let start = commentStart(in: line) {
                candidates.append((index + 1, String(line[start...]).trimmingCharacters(in: .whitespacesAndNewlines)))
            }
        }
        guard !candidates.isEmpty else { return [] }
        let strings = Self.strings(in: document.node)
        return candidates.filter { candidate in !strings.contains { $0.contains(candidate.text) } }.map(\.line)
    }

    /// Where a `#` after white space, outside a quoted scalar of the line, begins a comment.
    private static func commentStart(in line: Substring) -> Substring.Index? {
        var quote: Character?
        var previous: Character = " "
        var lastSignificant: Character = ":"
        for position in line.indices {
            let character = line[position]
            if let open = quote {
                if character == open, !(open == "\"" && previous == "\\") { quote = nil }
            } else if character == "\"" || character == "'", ":-[{,".contains(lastSignificant) {
                quote = character
            } else if character == "#", previous == " " || previous == "\t" {
                return position
            }
            previous = character
            if character != " " && character != "\t" { lastSignificant = character }
        }
        return nil
    }

    /// Every string and key of the tree, long ones included only if they hold a `#`.
    private static func strings(in node: Node) -> [String] {
        var found: [String] = []
        var stack = [node]
        while let next = stack.popLast() {
            switch next.kind {
            case .string(let text) where text.contains("#"): found.append(text)
            case .array(let elements): stack += elements
            case .object(let members):
                for member in members {
                    if member.key.contains("#") { found.append(member.key) }
                    stack.append(member.value)
                }
            default: break
            }
        }
        return found
    }
}
