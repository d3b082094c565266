/// Reads JSON text into a ``Node`` tree with byte offsets, the way iARVis's JSON parser reads it.
///
/// - Accepts a comma before a closing bracket (Apple's parser does, and real specs rely on it),
///   reporting it as a warning.
/// - Rejects everything else that is not JSON with one located error: comments, single quotes, `NaN`,
///   numbers out of the 64-bit float range, invalid UTF-8, raw control characters in strings.
/// - Reports a repeated key as an error and keeps reading.
/// - Never recurses deeper than `maximumDepth`, so hostile nesting is an error, not a stack overflow.
package struct JSONParser {
    /// The outcome: a tree, unless a syntax error stopped the parse, plus every diagnostic.
    package struct Output {
        package var root: Node?
        package var diagnostics: [PendingDiagnostic]
    }

    let bytes: UnsafeBufferPointer<UInt8>
    private let maximumDepth: Int
    var index = 0
    private var depth = 0
    var path = DocumentPath()
    var diagnostics: [PendingDiagnostic] = []
    /// Offsets of the arrays and objects currently open, for "not closed" hints.
    var openContainers: [Int] = []
    /// Line starts of the source, built the first time a hint needs a line and column.
    var sourceText: SourceText?
    /// The elements of the arrays being read, innermost last: each array is copied out at its exact
    /// size when it closes, so no array carries the slack of a growing buffer.
    private var pendingElements: [Node] = []

    /// A syntax error: parsing stops here.
    struct Stop: Error {}

    /// Parses `bytes`; at most one error stops the parse, warnings and key errors accumulate.
    package static func parse(_ bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) -> Output {
        var parser = JSONParser(bytes: bytes, maximumDepth: maximumDepth)
        let root = try? parser.parseDocument()
        return Output(root: root, diagnostics: parser.diagnostics)
    }

    private init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    // MARK: - Document

    mutating func parseDocument() throws(Stop) -> Node {
        guard bytes.count <= Node.maximumOffset else {
            throw fail(.unreadable, at: 0, "the document is \(bytes.count) bytes; documents must be smaller than 2 GiB")
        }
        try checkEncoding()
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
        skipWhitespace()
        guard index < bytes.count else {
            throw fail(
                .syntax, at: 0, "the document is empty", hint: "a spec is a JSON object such as {\"vStack\": {…}}")
        }
        let root = try parseValue()
        skipWhitespace()
        if index < bytes.count {
            throw fail(
                .syntax, at: index, "unexpected \(describeByte(at: index)) after the end of the document",
                hint: "a document holds exactly one value; remove the extra text")
        }
        return root
    }

    mutating func checkEncoding() throws(Stop) {
        let count = bytes.count
        if count >= 2, (bytes[0] == 0xFF && bytes[1] == 0xFE) || (bytes[0] == 0xFE && bytes[1] == 0xFF) {
            throw fail(.encoding, at: 0, "the file is UTF-16, not UTF-8", hint: "save it as UTF-8")
        }
        if count >= 2, bytes[0] == 0 || bytes[1] == 0 {
            throw fail(
                .encoding, at: 0, "the file has NUL bytes: it is UTF-16 or UTF-32, or not text",
                hint: "save it as UTF-8")
        }
    }

    // MARK: - Values

    mutating func parseValue() throws(Stop) -> Node {
        guard index < bytes.count else { throw truncated() }
        let start = index
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseContainer(start, isObject: true)
        case UInt8(ascii: "["): return try parseContainer(start, isObject: false)
        case UInt8(ascii: "\""): return Node(.string(try parseString()), offset: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true))
        case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false))
        case UInt8(ascii: "n"): return try parseLiteral("null", .null)
        default: throw unexpectedValue()
        }
    }

    mutating func parseContainer(_ start: Int, isObject: Bool) throws(Stop) -> Node {
        guard depth < maximumDepth else {
            diagnostics.append(.depthLimit(at: start, path: path.text, maximumDepth: maximumDepth))
            throw Stop()
        }
        depth += 1
        openContainers.append(start)
        index += 1
        let node =
            isObject
            ? Node(.object(try parseMembers()), offset: start) : Node(.array(try parseElements()), offset: start)
        openContainers.removeLast()
        depth -= 1
        return node
    }

    mutating func parseElements() throws(Stop) -> [Node] {
        let first = pendingElements.count
        func take(_ pending: inout [Node]) -> [Node] {
            // A fresh buffer of exactly this size (converting the slice could adopt the scratch buffer whole).
            let count = pending.count - first
            let elements = [Node](unsafeUninitializedCapacity: count) { buffer, initialized in
                pending.withUnsafeBufferPointer { source in
                    _ = buffer.initialize(fromContentsOf: UnsafeBufferPointer(rebasing: source[first...]))
                }
                initialized = count
            }
            pending.removeSubrange(first...)
            return elements
        }
        skipWhitespace()
        if try consumeClosing(UInt8(ascii: "]"), afterComma: nil) { return [] }
        while true {
            path.append(.index(pendingElements.count - first))
            let element = try parseValue()
            pendingElements.append(element)
            path.removeLast()
            skipWhitespace()
            guard index < bytes.count else { throw truncated() }
            if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return take(&pendingElements)
            }
            guard bytes[index] == UInt8(ascii: ",") else {
                if bytes[index] == UInt8(ascii: "/") { throw unexpectedValue() }
                throw fail(
                    .syntax, at: index, "expected ',' or ']' after an array element, found \(describeByte(at: index))")
            }
            let comma = index
            index += 1
            skipWhitespace()
            if try consumeClosing(UInt8(ascii: "]"), afterComma: comma) { return take(&pendingElements) }
        }
    }

    mutating func parseMembers() throws(Stop) -> [Node.Member] {
        var members: [Node.Member] = []
        var seen: [String: Int]?
        skipWhitespace()
        if try consumeClosing(UInt8(ascii: "}"), afterComma: nil) { return members }
        while true {
            guard index < bytes.count else { throw truncated() }
            guard bytes[index] == UInt8(ascii: "\"") else { throw expectedKey() }
            let keyOffset = index
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count else { throw truncated() }
            guard bytes[index] == UInt8(ascii: ":") else {
                throw fail(
                    .syntax, at: index, "expected ':' after the key \"\(key)\", found \(describeByte(at: index))")
            }
            index += 1
            skipWhitespace()
            path.append(.key(key))
            checkDuplicate(key, at: keyOffset, in: members, seen: &seen)
            let value = try parseValue()
            path.removeLast()
            members.append(Node.Member(key: key, keyOffset: keyOffset, value: value))
            skipWhitespace()
            guard index < bytes.count else { throw truncated() }
            if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return members
            }
            guard bytes[index] == UInt8(ascii: ",") else {
                if bytes[index] == UInt8(ascii: "/") { throw unexpectedValue() }
                throw fail(
                    .syntax, at: index,
                    "expected ',' or '}' after the value of \"\(key)\", found \(describeByte(at: index))",
                    hint: bytes[index] == UInt8(ascii: "\"") ? "add a comma between the members" : nil)
            }
            let comma = index
            index += 1
            skipWhitespace()
            if try consumeClosing(UInt8(ascii: "}"), afterComma: comma) { return members }
        }
    }

    /// Consumes `closing` if it is next; after a comma that is a (tolerated) trailing comma.
    mutating func consumeClosing(_ closing: UInt8, afterComma comma: Int?) throws(Stop) -> Bool {
        guard index < bytes.count else { throw truncated() }
        guard bytes[index] == closing else { return false }
        if let comma {
            diagnostics.append(
                PendingDiagnostic(
                    .warning, .trailingComma, offset: comma, path: path.text,
                    message: "trailing comma before '\(Character(UnicodeScalar(closing)))'",
                    hint: "remove the comma; iARVis accepts it but strict JSON parsers do not"))
        }
        index += 1
        return true
    }

    /// Reports `key` if `members` already has it. Small objects are searched; large ones keep a
    /// dictionary of first offsets, so an object of many (repeated) keys stays linear.
    mutating func checkDuplicate(_ key: String, at offset: Int, in members: [Node.Member], seen: inout [String: Int]?) {
        let first: Int?
        if members.count < 16 {
            first = members.first { $0.key == key }?.keyOffset
        } else {
            if seen == nil {
                seen = [:]
                for member in members where seen![member.key] == nil { seen![member.key] = member.keyOffset }
            }
            first = seen![key]
            if first == nil { seen![key] = offset }
        }
        guard let first else { return }
        diagnostics.append(
            PendingDiagnostic(
                .error, .duplicateKey, offset: offset, path: path.text,
                message: "duplicate key \"\(key)\"",
                hint:
                    "the first is at \(position(of: first)); keep one of them, as JSON parsers disagree on which one wins"
            ))
    }

    mutating func parseLiteral(_ word: StaticString, _ kind: Node.Kind) throws(Stop) -> Node {
        let start = index
        let length = word.utf8CodeUnitCount
        let matches =
            index + length <= bytes.count
            && (0..<length).allSatisfy { bytes[index + $0] == word.utf8Start[$0] }
        guard matches else { throw unexpectedValue() }
        index += length
        return Node(kind, offset: start)
    }

    // MARK: - Whitespace

    /// Skips white space. Pretty-printed specs are mostly indentation, so runs of spaces are skipped
    /// eight bytes at a time.
    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                index += 1
                skipSpaceRun()
            default: return
            }
        }
    }

    private static let eightSpaces = UInt64(0x2020_2020_2020_2020)

    private mutating func skipSpaceRun() {
        guard let base = bytes.baseAddress else { return }
        let raw = UnsafeRawPointer(base)
        while index + 8 <= bytes.count, raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) == Self.eightSpaces {
            index += 8
        }
    }

}
