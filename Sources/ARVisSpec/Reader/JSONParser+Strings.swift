/// Strings: an ASCII fast path, UTF-8 validation that names the bad byte, escapes and surrogate pairs.
extension JSONParser {
    mutating func parseString() throws(Stop) -> String {
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

    mutating func makeString(_ content: UnsafeBufferPointer<UInt8>, offset: Int, ascii: Bool) throws(Stop) -> String {
        if ascii { return String(decoding: content, as: UTF8.self) }
        if let text = String(validating: content, as: UTF8.self) { return text }
        let bad = offset + UTF8Validation.firstInvalidOffset(in: content)
        throw fail(
            .encoding, at: bad, "invalid UTF-8 byte 0x\(String(bytes[bad], radix: 16, uppercase: true)) in a string",
            hint: "save the file as UTF-8")
    }

    mutating func parseEscapedString(from start: Int) throws(Stop) -> String {
        var buffer = [UInt8](UnsafeBufferPointer(rebasing: bytes[(start + 1)..<index]))
        var nonASCII: UInt8 = buffer.reduce(0, |)
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                if nonASCII & 0x80 != 0 {
                    // Escapes are ASCII, so any invalid byte is in the source too: locate it there.
                    _ = try makeString(
                        UnsafeBufferPointer(rebasing: bytes[(start + 1)..<(index - 1)]), offset: start + 1, ascii: false
                    )
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

    mutating func appendEscape(to buffer: inout [UInt8]) throws(Stop) {
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
            throw fail(
                .syntax, at: escapeStart, "invalid escape '\\\(Character(UnicodeScalar(code)))' in a string",
                hint: "valid escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX; write a backslash as \\\\")
        }
    }

    mutating func parseUnicodeEscape(from escapeStart: Int) throws(Stop) -> Unicode.Scalar {
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

    mutating func parseHex4(_ escapeStart: Int) throws(Stop) -> UInt32 {
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

    func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    func appendUTF8(_ scalar: Unicode.Scalar, to buffer: inout [UInt8]) {
        UTF8.encode(scalar) { buffer.append($0) }
    }

}
