/// A small zlib reader for tests: stored and fixed-Huffman blocks, the kinds ``Deflate`` writes.
/// Returns `nil` on any malformed input (including dynamic-Huffman blocks, which it does not read).
enum TestInflate {
    static func zlib(_ bytes: [UInt8]) -> [UInt8]? {
        guard bytes.count >= 6, (UInt16(bytes[0]) << 8 | UInt16(bytes[1])) % 31 == 0, bytes[0] & 0x0F == 8 else { return nil }
        var reader = BitReader(bytes: bytes, position: 2)
        var output: [UInt8] = []
        while true {
            guard let last = reader.bits(1), let type = reader.bits(2) else { return nil }
            switch type {
            case 0:
                reader.alignToByte()
                guard let length = reader.bits(16), let complement = reader.bits(16), length ^ 0xFFFF == complement else { return nil }
                for _ in 0..<length {
                    guard let byte = reader.bits(8) else { return nil }
                    output.append(UInt8(byte))
                }
            case 1:
                guard inflateFixed(&reader, &output) else { return nil }
            default:
                return nil
            }
            if last == 1 { break }
        }
        return output
    }

    private static let lengthBases = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    private static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    private static let distanceBases = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
    private static let distanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]

    /// Reads one fixed-code literal/length symbol, most significant bit first.
    private static func symbol(_ reader: inout BitReader) -> Int? {
        var code = 0
        for length in 1...9 {
            guard let bit = reader.bits(1) else { return nil }
            code = code << 1 | bit
            switch (length, code) {
            case (7, 0...0x17): return 256 + code
            case (8, 0x30...0xBF): return code - 0x30
            case (8, 0xC0...0xC7): return 280 + code - 0xC0
            case (9, 0x190...0x1FF): return 144 + code - 0x190
            default: continue
            }
        }
        return nil
    }

    private static func inflateFixed(_ reader: inout BitReader, _ output: inout [UInt8]) -> Bool {
        while let value = symbol(&reader) {
            if value < 256 { output.append(UInt8(value)); continue }
            if value == 256 { return true }
            let index = value - 257
            guard index < lengthBases.count, let extra = reader.bits(lengthExtra[index]) else { return false }
            let length = lengthBases[index] + extra
            var distanceCode = 0
            for _ in 0..<5 {
                guard let bit = reader.bits(1) else { return false }
                distanceCode = distanceCode << 1 | bit
            }
            guard distanceCode < distanceBases.count, let distanceBits = reader.bits(distanceExtra[distanceCode]) else { return false }
            let distance = distanceBases[distanceCode] + distanceBits
            guard distance <= output.count else { return false }
            for _ in 0..<length { output.append(output[output.count - distance]) }
        }
        return false
    }

    private struct BitReader {
        let bytes: [UInt8]
        var position: Int
        var bit = 0

        mutating func bits(_ count: Int) -> Int? {
            var value = 0
            for index in 0..<count {
                guard position < bytes.count else { return nil }
                value |= Int((bytes[position] >> UInt8(bit)) & 1) << index
                bit += 1
                if bit == 8 { bit = 0; position += 1 }
            }
            return value
        }

        mutating func alignToByte() {
            if bit > 0 { bit = 0; position += 1 }
        }
    }
}
