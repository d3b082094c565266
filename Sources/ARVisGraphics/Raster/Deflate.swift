/// A zlib stream (RFC 1950) of DEFLATE data (RFC 1951): LZ77 matches found through hash chains,
/// written with the fixed Huffman codes.
enum Deflate {
    static func zlib(_ input: [UInt8]) -> [UInt8] {
        var writer = BitWriter()
        writer.bytes.reserveCapacity(input.count / 4 + 64)
        writer.bytes.append(0x78)
        writer.bytes.append(0x01)
        compress(input, into: &writer)
        writer.flush()
        let checksum = adler32(input)
        for shift in [24, 16, 8, 0] { writer.bytes.append(UInt8(truncatingIfNeeded: checksum >> UInt32(shift))) }
        return writer.bytes
    }

    private static let windowSize = 32_768
    private static let hashBits = 15
    private static let maxChain = 24
    private static let maxMatch = 258
    private static let blockLength = 1 << 20

    private static func compress(_ input: [UInt8], into writer: inout BitWriter) {
        var head = [Int32](repeating: -1, count: 1 << hashBits)
        var previous = [Int32](repeating: -1, count: windowSize)
        var position = 0
        var blockStart = 0
        let count = input.count
        input.withUnsafeBufferPointer { data in
            func hash(_ at: Int) -> Int {
                let value = UInt32(data[at]) << 16 | UInt32(data[at + 1]) << 8 | UInt32(data[at + 2])
                return Int((value &* 2_654_435_761) >> UInt32(32 - hashBits))
            }
            func insert(_ at: Int) {
                guard at + 2 < count else { return }
                let key = hash(at)
                previous[at & (windowSize - 1)] = head[key]
                head[key] = Int32(at)
            }
            repeat {
                let isLast = count - blockStart <= blockLength
                writer.write(isLast ? 1 : 0, bits: 1)
                writer.write(1, bits: 2)  // fixed Huffman codes
                let blockEnd = isLast ? count : blockStart + blockLength
                while position < blockEnd {
                    var bestLength = 0, bestDistance = 0
                    if position + 2 < count {
                        var candidate = Int(head[hash(position)])
                        var chain = maxChain
                        let limit = min(maxMatch, count - position)
                        while candidate >= 0, position - candidate <= windowSize, chain > 0 {
                            if data[candidate + bestLength] == data[position + bestLength] {
                                var length = 0
                                while length < limit && data[candidate + length] == data[position + length] { length += 1 }
                                if length > bestLength {
                                    bestLength = length
                                    bestDistance = position - candidate
                                    if length == limit { break }
                                }
                            }
                            let next = Int(previous[candidate & (windowSize - 1)])
                            if next >= candidate { break }
                            candidate = next
                            chain -= 1
                        }
                    }
                    if bestLength >= 3 {
                        writer.writeLength(bestLength)
                        writer.writeDistance(bestDistance)
                        for offset in 0..<bestLength { insert(position + offset) }
                        position += bestLength
                    } else {
                        writer.writeLiteral(Int(data[position]))
                        insert(position)
                        position += 1
                    }
                }
                writer.writeLiteral(256)
                blockStart = blockEnd
            } while blockStart < count
        }
    }

    static func adler32(_ input: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        var index = 0
        while index < input.count {
            let end = min(input.count, index + 5552)
            while index < end {
                a += UInt32(input[index])
                b += a
                index += 1
            }
            a %= 65521
            b %= 65521
        }
        return b << 16 | a
    }
}

/// Packs bits least-significant first, as DEFLATE wants, with Huffman codes reversed.
private struct BitWriter {
    var bytes: [UInt8] = []
    private var buffer: UInt64 = 0
    private var count: UInt64 = 0

    mutating func write(_ value: Int, bits: Int) {
        buffer |= UInt64(value) << count
        count += UInt64(bits)
        while count >= 8 {
            bytes.append(UInt8(truncatingIfNeeded: buffer))
            buffer >>= 8
            count -= 8
        }
    }

    mutating func flush() {
        if count > 0 { bytes.append(UInt8(truncatingIfNeeded: buffer)) }
        buffer = 0
        count = 0
    }

    /// A Huffman code, written most significant bit first.
    private mutating func writeCode(_ code: Int, bits: Int) {
        var reversed = 0
        for bit in 0..<bits where code & (1 << bit) != 0 { reversed |= 1 << (bits - 1 - bit) }
        write(reversed, bits: bits)
    }

    /// A literal byte or the end-of-block symbol (256) in the fixed code.
    mutating func writeLiteral(_ symbol: Int) {
        switch symbol {
        case 0...143: writeCode(0x30 + symbol, bits: 8)
        case 144...255: writeCode(0x190 + symbol - 144, bits: 9)
        case 256...279: writeCode(symbol - 256, bits: 7)
        default: writeCode(0xC0 + symbol - 280, bits: 8)
        }
    }

    private static let lengthBases = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    private static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    private static let distanceBases = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
    private static let distanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]

    mutating func writeLength(_ length: Int) {
        var index = Self.lengthBases.count - 1
        while Self.lengthBases[index] > length { index -= 1 }
        writeLiteral(257 + index)
        if Self.lengthExtra[index] > 0 { write(length - Self.lengthBases[index], bits: Self.lengthExtra[index]) }
    }

    mutating func writeDistance(_ distance: Int) {
        var index = Self.distanceBases.count - 1
        while Self.distanceBases[index] > distance { index -= 1 }
        writeCode(index, bits: 5)
        if Self.distanceExtra[index] > 0 { write(distance - Self.distanceBases[index], bits: Self.distanceExtra[index]) }
    }
}
