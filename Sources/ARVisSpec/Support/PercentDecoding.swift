/// `%XX` escapes decoded the same way wherever a spec's text carries them (resource paths, data
/// URLs, iARVis link parameters).
package enum PercentDecoding {
    /// The bytes of `text` with every `%XX` decoded. A `%` not followed by two hex digits is kept as
    /// it is, or with `strict` makes the whole text undecodable (`nil`).
    package static func bytes(_ text: some StringProtocol, strict: Bool) -> [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var rest = text.utf8[...]
        while let byte = rest.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            var digits = rest.prefix(2).makeIterator()
            if let high = digits.next().flatMap(hexValue), let low = digits.next().flatMap(hexValue) {
                bytes.append(high << 4 | low)
                rest = rest.dropFirst(2)
            } else if strict {
                return nil
            } else {
                bytes.append(byte)
            }
        }
        return bytes
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
