/// Finds where a byte sequence stops being valid UTF-8, so an encoding error can name its byte.
package enum UTF8Validation {
    /// The offset of the first byte that does not start or continue a valid UTF-8 sequence,
    /// or `bytes.count` when all of them are valid.
    package static func firstInvalidOffset(in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var index = 0
        while index < bytes.count {
            let length = sequenceLength(bytes, at: index)
            if length == 0 { return index }
            index += length
        }
        return bytes.count
    }

    /// The length of the valid sequence starting at `index`, or 0 if none starts there.
    private static func sequenceLength(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
        let lead = bytes[index]
        let length: Int
        var lowest: UInt8 = 0x80
        var highest: UInt8 = 0xBF
        switch lead {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            lowest = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            highest = 0x9F
        case 0xF0:
            length = 4
            lowest = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            highest = 0x8F
        default: return 0
        }
        guard index + length <= bytes.count else { return 0 }
        guard (lowest...highest).contains(bytes[index + 1]) else { return 0 }
        for offset in 2..<max(length, 2) where !(0x80...0xBF).contains(bytes[index + offset]) { return 0 }
        return length
    }
}
