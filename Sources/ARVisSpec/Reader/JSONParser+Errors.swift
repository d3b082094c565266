/// Errors: one located diagnostic per syntax error, with the message and hint an author can act on.
extension JSONParser {
    mutating func fail(_ code: SpecError.Code, at offset: Int, _ message: String, hint: String? = nil) -> Stop {
        diagnostics.append(
            PendingDiagnostic(.error, code, offset: offset, path: path.text, message: message, hint: hint))
        return Stop()
    }

    mutating func truncated() -> Stop {
        let hint = openContainers.last.map {
            "the document ends inside the \(bytes[$0] == UInt8(ascii: "{") ? "object" : "array") opened at \(position(of: $0)); it may be truncated"
        }
        return fail(.syntax, at: bytes.count, "unexpected end of file", hint: hint ?? "the document may be truncated")
    }

    mutating func expectedKey() -> Stop {
        if bytes[index] == UInt8(ascii: "'") {
            return fail(
                .syntax, at: index, "keys must be in double quotes, found a single quote",
                hint: "use \"…\" instead of '…'")
        }
        return fail(.syntax, at: index, "expected a key in double quotes, found \(describeByte(at: index))")
    }

    mutating func unexpectedValue() -> Stop {
        let byte = bytes[index]
        switch byte {
        case UInt8(ascii: "/"):
            return fail(
                .syntax, at: index, "comments are not allowed in JSON",
                hint: "remove the comment, or write the spec in YAML")
        case UInt8(ascii: "'"):
            return fail(
                .syntax, at: index, "strings must be in double quotes, found a single quote",
                hint: "use \"…\" instead of '…'")
        case UInt8(ascii: "N"), UInt8(ascii: "I"):
            return nonFinite(index)
        case UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: ","):
            return fail(.syntax, at: index, "expected a value, found \(describeByte(at: index))")
        default:
            return fail(
                .syntax, at: index, "expected a value, found \(describeByte(at: index))",
                hint: byte >= 0x80 || isLetter(byte) ? "strings must be in double quotes" : nil)
        }
    }

    mutating func nonFinite(_ offset: Int) -> Stop {
        fail(.syntax, at: offset, "NaN and Infinity are not JSON numbers", hint: "use a finite number, or null")
    }

    mutating func loneSurrogate(_ offset: Int) -> Stop {
        fail(
            .syntax, at: offset, "a \\u escape encodes half of a UTF-16 surrogate pair",
            hint: "escape characters beyond U+FFFF as a pair \\uD8xx\\uDCxx")
    }

    mutating func controlCharacter(at offset: Int) -> Stop {
        let byte = bytes[offset]
        let hint =
            byte == 0x0A
            ? "write a line break inside a string as \\n"
            : "escape it as \\u00\(byte < 16 ? "0" : "")\(String(byte, radix: 16, uppercase: true))"
        return fail(
            .syntax, at: offset,
            "raw control character U+00\(byte < 16 ? "0" : "")\(String(byte, radix: 16, uppercase: true)) in a string",
            hint: hint)
    }

    func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }

    func describeByte(at offset: Int) -> String {
        let byte = bytes[offset]
        if byte >= 0x21, byte < 0x7F { return "'\(Character(UnicodeScalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    /// "line L, column C" of an offset, for hints that point somewhere else. The line table is built
    /// once per parse, so a document full of repeated keys stays linear.
    mutating func position(of offset: Int) -> String {
        if sourceText == nil { sourceText = SourceText(Array(bytes)) }
        let (line, column) = sourceText!.lineAndColumn(of: offset)
        return "line \(line), column \(column)"
    }

    func text(from start: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    }
}
