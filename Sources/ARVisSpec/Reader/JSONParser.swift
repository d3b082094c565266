#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

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

    private let bytes: UnsafeBufferPointer<UInt8>
    private let maximumDepth: Int
    private var index = 0
    private var depth = 0
    private var path = DocumentPath()
    private var diagnostics: [PendingDiagnostic] = []
    /// Offsets of the arrays and objects currently open, for "not closed" hints.
    private var openContainers: [Int] = []
    /// Line starts of the source, built the first time a hint needs a line and column.
    private var sourceText: SourceText?

    /// A syntax error: parsing stops here.
    private struct Stop: Error {}

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

    private mutating func parseDocument() throws(Stop) -> Node {
        try checkEncoding()
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
        skipWhitespace()
        guard index < bytes.count else {
            throw fail(.syntax, at: 0, "the document is empty", hint: "a spec is a JSON object such as {\"vStack\": {…}}")
        }
        let root = try parseValue()
        skipWhitespace()
        if index < bytes.count {
            throw fail(.syntax, at: index, "unexpected \(describeByte(at: index)) after the end of the document",
                       hint: "a document holds exactly one value; remove the extra text")
        }
        return root
    }

    private mutating func checkEncoding() throws(Stop) {
        let count = bytes.count
        if count >= 2, (bytes[0] == 0xFF && bytes[1] == 0xFE) || (bytes[0] == 0xFE && bytes[1] == 0xFF) {
            throw fail(.encoding, at: 0, "the file is UTF-16, not UTF-8", hint: "save it as UTF-8")
        }
        if count >= 2, bytes[0] == 0 || bytes[1] == 0 {
            throw fail(.encoding, at: 0, "the file has NUL bytes: it is UTF-16 or UTF-32, or not text",
                       hint: "save it as UTF-8")
        }
    }

    // MARK: - Values

    private mutating func parseValue() throws(Stop) -> Node {
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

    private mutating func parseContainer(_ start: Int, isObject: Bool) throws(Stop) -> Node {
        guard depth < maximumDepth else {
            diagnostics.append(.depthLimit(at: start, path: path.text, maximumDepth: maximumDepth))
            throw Stop()
        }
        depth += 1
        openContainers.append(start)
        index += 1
        let node = isObject
            ? Node(.object(try parseMembers()), offset: start) : Node(.array(try parseElements()), offset: start)
        openContainers.removeLast()
        depth -= 1
        return node
    }

    private mutating func parseElements() throws(Stop) -> [Node] {
        var elements: [Node] = []
        skipWhitespace()
        if try consumeClosing(UInt8(ascii: "]"), afterComma: nil) { return elements }
        while true {
            path.append(.index(elements.count))
            elements.append(try parseValue())
            path.removeLast()
            skipWhitespace()
            guard index < bytes.count else { throw truncated() }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return elements }
            guard bytes[index] == UInt8(ascii: ",") else {
                if bytes[index] == UInt8(ascii: "/") { throw unexpectedValue() }
                throw fail(.syntax, at: index, "expected ',' or ']' after an array element, found \(describeByte(at: index))")
            }
            let comma = index
            index += 1
            skipWhitespace()
            if try consumeClosing(UInt8(ascii: "]"), afterComma: comma) { return elements }
        }
    }

    private mutating func parseMembers() throws(Stop) -> [Node.Member] {
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
                throw fail(.syntax, at: index, "expected ':' after the key \"\(key)\", found \(describeByte(at: index))")
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
            if bytes[index] == UInt8(ascii: "}") { index += 1; return members }
            guard bytes[index] == UInt8(ascii: ",") else {
                if bytes[index] == UInt8(ascii: "/") { throw unexpectedValue() }
                throw fail(.syntax, at: index, "expected ',' or '}' after the value of \"\(key)\", found \(describeByte(at: index))",
                           hint: bytes[index] == UInt8(ascii: "\"") ? "add a comma between the members" : nil)
            }
            let comma = index
            index += 1
            skipWhitespace()
            if try consumeClosing(UInt8(ascii: "}"), afterComma: comma) { return members }
        }
    }

    /// Consumes `closing` if it is next; after a comma that is a (tolerated) trailing comma.
    private mutating func consumeClosing(_ closing: UInt8, afterComma comma: Int?) throws(Stop) -> Bool {
        guard index < bytes.count else { throw truncated() }
        guard bytes[index] == closing else { return false }
        if let comma {
            diagnostics.append(PendingDiagnostic(
                .warning, .trailingComma, offset: comma, path: path.text,
                message: "trailing comma before '\(Character(UnicodeScalar(closing)))'",
                hint: "remove the comma; iARVis accepts it but strict JSON parsers do not"))
        }
        index += 1
        return true
    }

    /// Reports `key` if `members` already has it. Small objects are searched; large ones keep a
    /// dictionary of first offsets, so an object of many (repeated) keys stays linear.
    private mutating func checkDuplicate(_ key: String, at offset: Int, in members: [Node.Member], seen: inout [String: Int]?) {
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
        diagnostics.append(PendingDiagnostic(
            .error, .duplicateKey, offset: offset, path: path.text,
            message: "duplicate key \"\(key)\"",
            hint: "the first is at \(position(of: first)); keep one of them, as JSON parsers disagree on which one wins"))
    }

    private mutating func parseLiteral(_ word: StaticString, _ kind: Node.Kind) throws(Stop) -> Node {
        let start = index
        let length = word.utf8CodeUnitCount
        let matches = index + length <= bytes.count
            && (0..<length).allSatisfy { bytes[index + $0] == word.utf8Start[$0] }
        guard matches else { throw unexpectedValue() }
        index += length
        return Node(kind, offset: start)
    }

    // MARK: - Strings

    private mutating func parseString() throws(Stop) -> String {
        let start = index
        index += 1
        var nonASCII: UInt8 = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let content = UnsafeBufferPointer(rebasing: bytes[(start + 1)..<index])
                index += 1
                return try makeString(content, offset: start + 1, ascii: nonASCII & 0x80 == 0)
            }
            if byte == UInt8(ascii: "\\") { return try parseEscapedString(from: start) }
            if byte < 0x20 { throw controlCharacter(at: index) }
            nonASCII |= byte
            index += 1
        }
        throw fail(.syntax, at: start, "unterminated string", hint: "add the closing '\"'")
    }

    private mutating func makeString(_ content: UnsafeBufferPointer<UInt8>, offset: Int, ascii: Bool) throws(Stop) -> String {
        if ascii { return String(decoding: content, as: UTF8.self) }
        if let text = String(validating: content, as: UTF8.self) { return text }
        let bad = offset + UTF8Validation.firstInvalidOffset(in: content)
        throw fail(.encoding, at: bad, "invalid UTF-8 byte 0x\(String(bytes[bad], radix: 16, uppercase: true)) in a string",
                   hint: "save the file as UTF-8")
    }

    private mutating func parseEscapedString(from start: Int) throws(Stop) -> String {
        var buffer = [UInt8](UnsafeBufferPointer(rebasing: bytes[(start + 1)..<index]))
        var nonASCII: UInt8 = buffer.reduce(0, |)
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                if nonASCII & 0x80 != 0 {
                    // Escapes are ASCII, so any invalid byte is in the source too: locate it there.
                    _ = try makeString(UnsafeBufferPointer(rebasing: bytes[(start + 1)..<(index - 1)]), offset: start + 1, ascii: false)
                }
                return String(decoding: buffer, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try appendEscape(to: &buffer)
            case 0..<0x20:
                throw controlCharacter(at: index)
            default:
                nonASCII |= byte
                buffer.append(byte)
                index += 1
            }
        }
        throw fail(.syntax, at: start, "unterminated string", hint: "add the closing '\"'")
    }

    private mutating func appendEscape(to buffer: inout [UInt8]) throws(Stop) {
        let escapeStart = index
        index += 1
        guard index < bytes.count else { throw truncated() }
        let code = bytes[index]
        index += 1
        switch code {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(code)
        case UInt8(ascii: "b"): buffer.append(0x08)
        case UInt8(ascii: "f"): buffer.append(0x0C)
        case UInt8(ascii: "n"): buffer.append(0x0A)
        case UInt8(ascii: "r"): buffer.append(0x0D)
        case UInt8(ascii: "t"): buffer.append(0x09)
        case UInt8(ascii: "u"): appendUTF8(try parseUnicodeEscape(from: escapeStart), to: &buffer)
        default:
            throw fail(.syntax, at: escapeStart, "invalid escape '\\\(Character(UnicodeScalar(code)))' in a string",
                       hint: "valid escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX; write a backslash as \\\\")
        }
    }

    private mutating func parseUnicodeEscape(from escapeStart: Int) throws(Stop) -> Unicode.Scalar {
        let high = try parseHex4(escapeStart)
        if (0xDC00...0xDFFF).contains(high) { throw loneSurrogate(escapeStart) }
        guard (0xD800...0xDBFF).contains(high) else { return Unicode.Scalar(high)! }
        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
            throw loneSurrogate(escapeStart)
        }
        index += 2
        let low = try parseHex4(escapeStart)
        guard (0xDC00...0xDFFF).contains(low) else { throw loneSurrogate(escapeStart) }
        return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
    }

    private mutating func parseHex4(_ escapeStart: Int) throws(Stop) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count, let digit = hexValue(bytes[index]) else {
                throw fail(.syntax, at: escapeStart, "a \\u escape needs four hexadecimal digits")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    private func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private func appendUTF8(_ scalar: Unicode.Scalar, to buffer: inout [UInt8]) {
        UTF8.encode(scalar) { buffer.append($0) }
    }

    // MARK: - Numbers

    private mutating func parseNumber() throws(Stop) -> Node {
        let start = index
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else {
            if index < bytes.count, bytes[index] == UInt8(ascii: "I") { throw nonFinite(start) }
            throw fail(.syntax, at: start, "a '-' must be followed by digits")
        }
        var digits = Digits()
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) {
                throw fail(.syntax, at: start, "numbers cannot have leading zeros", hint: "write it without the leading 0")
            }
        } else {
            scanDigits(&digits, fractional: false)
        }
        var isInteger = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw fail(.syntax, at: start, "a decimal point must be followed by digits")
            }
            scanDigits(&digits, fractional: true)
        }
        var exponent = 0
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            exponent = try parseExponent(start)
        }
        if isInteger, !digits.dropped, let integer = digits.integer(negative: negative) {
            return Node(.int(integer), offset: start)
        }
        let value = fastDouble(digits, exponent + digits.exponent) ?? slowDouble(from: start)
        guard value.isFinite else {
            throw fail(.numberOutOfRange, at: start, "the number \(text(from: start)) is out of range",
                       hint: "numbers must fit a 64-bit float (about ±1.8e308)")
        }
        return Node(.double(negative ? -value : value), offset: start)
    }

    /// The significant digits of a number: up to 19 of them, exactly, in a 64-bit integer.
    private struct Digits {
        var mantissa: UInt64 = 0
        /// Significant digits kept in `mantissa` (leading zeros do not count).
        var count = 0
        /// The power of ten `mantissa` is to be multiplied by.
        var exponent = 0
        /// Whether digits beyond the 19th were dropped (the slow path then converts exactly).
        var dropped = false

        func integer(negative: Bool) -> Int? {
            guard exponent == 0 else { return nil }
            if negative { return mantissa <= UInt64(Int.max) + 1 ? Int(truncatingIfNeeded: 0 &- mantissa) : nil }
            return mantissa <= UInt64(Int.max) ? Int(mantissa) : nil
        }
    }

    private mutating func scanDigits(_ digits: inout Digits, fractional: Bool) {
        while index < bytes.count, isDigit(bytes[index]) {
            if digits.count < 19 {
                digits.mantissa = digits.mantissa * 10 + UInt64(bytes[index] - UInt8(ascii: "0"))
                if digits.mantissa != 0 { digits.count += 1 }
                if fractional { digits.exponent -= 1 }
            } else {
                digits.dropped = true
                if !fractional { digits.exponent += 1 }
            }
            index += 1
        }
    }

    private mutating func parseExponent(_ start: Int) throws(Stop) -> Int {
        index += 1
        var negative = false
        if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        guard index < bytes.count, isDigit(bytes[index]) else {
            throw fail(.syntax, at: start, "an exponent must have digits")
        }
        var value = 0
        while index < bytes.count, isDigit(bytes[index]) {
            value = min(value * 10 + Int(bytes[index] - UInt8(ascii: "0")), 100_000)
            index += 1
        }
        return negative ? -value : value
    }

    private static let exactPowersOfTen: [Double] = (0...22).map { exponent in
        (0..<exponent).reduce(1.0) { value, _ in value * 10 }
    }

    /// Clinger's fast path: exact when the mantissa and the power of ten are both exact doubles.
    private func fastDouble(_ digits: Digits, _ exponent: Int) -> Double? {
        guard !digits.dropped, digits.count <= 15, (-22...22).contains(exponent) else { return nil }
        let value = Double(digits.mantissa)
        return exponent < 0 ? value / Self.exactPowersOfTen[-exponent] : value * Self.exactPowersOfTen[exponent]
    }

    /// Correctly rounded conversion of the number's text by the C library, for the rare hard cases.
    private func slowDouble(from start: Int) -> Double {
        var text = Array(bytes[start..<index])
        if text.first == UInt8(ascii: "-") { text.removeFirst() }
        text.append(0)
        return text.withUnsafeBufferPointer { pointer in
            pointer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: pointer.count) { strtod($0, nil) }
        }
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    // MARK: - Whitespace and errors

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\t"), UInt8(ascii: "\r"): index += 1
            default: return
            }
        }
    }

    private mutating func fail(_ code: SpecError.Code, at offset: Int, _ message: String, hint: String? = nil) -> Stop {
        diagnostics.append(PendingDiagnostic(.error, code, offset: offset, path: path.text, message: message, hint: hint))
        return Stop()
    }

    private mutating func truncated() -> Stop {
        let hint = openContainers.last.map { "the document ends inside the \(bytes[$0] == UInt8(ascii: "{") ? "object" : "array") opened at \(position(of: $0)); it may be truncated" }
        return fail(.syntax, at: bytes.count, "unexpected end of file", hint: hint ?? "the document may be truncated")
    }

    private mutating func expectedKey() -> Stop {
        if bytes[index] == UInt8(ascii: "'") {
            return fail(.syntax, at: index, "keys must be in double quotes, found a single quote", hint: "use \"…\" instead of '…'")
        }
        return fail(.syntax, at: index, "expected a key in double quotes, found \(describeByte(at: index))")
    }

    private mutating func unexpectedValue() -> Stop {
        let byte = bytes[index]
        switch byte {
        case UInt8(ascii: "/"):
            return fail(.syntax, at: index, "comments are not allowed in JSON", hint: "remove the comment, or write the spec in YAML")
        case UInt8(ascii: "'"):
            return fail(.syntax, at: index, "strings must be in double quotes, found a single quote", hint: "use \"…\" instead of '…'")
        case UInt8(ascii: "N"), UInt8(ascii: "I"):
            return nonFinite(index)
        case UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: ","):
            return fail(.syntax, at: index, "expected a value, found \(describeByte(at: index))")
        default:
            return fail(.syntax, at: index, "expected a value, found \(describeByte(at: index))",
                        hint: byte >= 0x80 || isLetter(byte) ? "strings must be in double quotes" : nil)
        }
    }

    private mutating func nonFinite(_ offset: Int) -> Stop {
        fail(.syntax, at: offset, "NaN and Infinity are not JSON numbers", hint: "use a finite number, or null")
    }

    private mutating func loneSurrogate(_ offset: Int) -> Stop {
        fail(.syntax, at: offset, "a \\u escape encodes half of a UTF-16 surrogate pair", hint: "escape characters beyond U+FFFF as a pair \\uD8xx\\uDCxx")
    }

    private mutating func controlCharacter(at offset: Int) -> Stop {
        let byte = bytes[offset]
        let hint = byte == 0x0A ? "write a line break inside a string as \\n" : "escape it as \\u00\(byte < 16 ? "0" : "")\(String(byte, radix: 16, uppercase: true))"
        return fail(.syntax, at: offset, "raw control character U+00\(byte < 16 ? "0" : "")\(String(byte, radix: 16, uppercase: true)) in a string", hint: hint)
    }

    private func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }

    private func describeByte(at offset: Int) -> String {
        let byte = bytes[offset]
        if byte >= 0x21, byte < 0x7F { return "'\(Character(UnicodeScalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    /// "line L, column C" of an offset, for hints that point somewhere else. The line table is built
    /// once per parse, so a document full of repeated keys stays linear.
    private mutating func position(of offset: Int) -> String {
        if sourceText == nil { sourceText = SourceText(Array(bytes)) }
        let (line, column) = sourceText!.lineAndColumn(of: offset)
        return "line \(line), column \(column)"
    }

    private func text(from start: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    }
}
