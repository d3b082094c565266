/// A zlib stream (RFC 1950) of DEFLATE data (RFC 1951): LZ77 matches found through hash chains,
/// written with the fixed Huffman codes.
///
/// Tuned for rendered pictures, which are long runs of the same bytes: the chain search stops at the
/// first maximal match, and only the start of a long match is entered into the hash chains.
enum Deflate {
    static func zlib(_ input: [UInt8]) -> [UInt8] {
        var writer = BitWriter(capacity: input.count / 8 + 1024)
        writer.bytes.append(0x78)
        writer.bytes.append(0x01)
        input.withUnsafeBufferPointer { compress($0, into: &writer) }
        writer.flush()
        let checksum = adler32(input)
        for shift in [24, 16, 8, 0] { writer.bytes.append(UInt8(truncatingIfNeeded: checksum >> UInt32(shift))) }
        return writer.bytes
    }

    private static let windowSize = 32_768
    private static let hashBits = 15
    private static let maxChain = 16
    private static let maxMatch = 258
    /// Matches longer than this enter only their first positions into the hash chains.
    private static let maxInsert = 8
    private static let blockLength = 1 << 20

    private static func compress(_ data: UnsafeBufferPointer<UInt8>, into writer: inout BitWriter) {
        let count = data.count
        let head = UnsafeMutablePointer<Int32>.allocate(capacity: 1 << hashBits)
        head.initialize(repeating: -1, count: 1 << hashBits)
        let previous = UnsafeMutablePointer<Int32>.allocate(capacity: windowSize)
        previous.initialize(repeating: -1, count: windowSize)
        defer {
            head.deallocate()
            previous.deallocate()
        }
        let mask = windowSize - 1
        @inline(__always) func hash(_ at: Int) -> Int {
            let value = UInt32(data[at]) << 16 | UInt32(data[at + 1]) << 8 | UInt32(data[at + 2])
            return Int((value &* 2_654_435_761) >> UInt32(32 - hashBits))
        }
        var position = 0
        var blockStart = 0
        repeat {
            let isLast = count - blockStart <= blockLength
            writer.write(isLast ? 1 : 0, bits: 1)
            writer.write(1, bits: 2)  // fixed Huffman codes
            let blockEnd = isLast ? count : blockStart + blockLength
            while position < blockEnd {
                var bestLength = 0, bestDistance = 0
                if position + 2 < count {
                    let key = hash(position)
                    var candidate = Int(head[key])
                    previous[position & mask] = head[key]
                    head[key] = Int32(position)
                    var chain = maxChain
                    let limit = min(maxMatch, count - position)
                    while candidate >= 0, position - candidate <= windowSize, chain > 0 {
                        if data[candidate + bestLength] == data[position + bestLength] {
                            let length = matchLength(data, candidate, position, limit)
                            if length > bestLength {
                                bestLength = length
                                bestDistance = position - candidate
                                if length == limit { break }
                            }
                        }
                        let next = Int(previous[candidate & mask])
                        if next >= candidate { break }
                        candidate = next
                        chain -= 1
                    }
                }
                if bestLength >= 3 {
                    writer.writeMatch(length: bestLength, distance: bestDistance)
                    let inserted = min(bestLength, maxInsert)
                    var offset = 1
                    while offset < inserted {
                        let at = position + offset
                        if at + 2 < count {
                            let key = hash(at)
                            previous[at & mask] = head[key]
                            head[key] = Int32(at)
                        }
                        offset += 1
                    }
                    position += bestLength
                } else {
                    writer.writeLiteral(Int(data[position]))
                    position += 1
                }
            }
            writer.writeLiteral(256)
            blockStart = blockEnd
        } while blockStart < count
    }

    /// How many bytes from `position` repeat those from `candidate`, up to `limit`, compared eight at a time.
    @inline(__always) private static func matchLength(_ data: UnsafeBufferPointer<UInt8>, _ candidate: Int, _ position: Int, _ limit: Int) -> Int {
        let base = UnsafeRawPointer(data.baseAddress!)
        var length = 0
        while length + 8 <= limit {
            let difference = base.loadUnaligned(fromByteOffset: candidate + length, as: UInt64.self)
                ^ base.loadUnaligned(fromByteOffset: position + length, as: UInt64.self)
            if difference != 0 { return length + difference.littleEndian.trailingZeroBitCount / 8 }
            length += 8
        }
        while length < limit && data[candidate + length] == data[position + length] { length += 1 }
        return length
    }

    static func adler32(_ input: [UInt8]) -> UInt32 {
        input.withUnsafeBufferPointer { data in
            var a: UInt32 = 1, b: UInt32 = 0
            var index = 0
            while index < data.count {
                let end = min(data.count, index + 5552)
                while index < end {
                    a &+= UInt32(data[index])
                    b &+= a
                    index += 1
                }
                a %= 65521
                b %= 65521
            }
            return b << 16 | a
        }
    }
}

/// Packs bits least-significant first, as DEFLATE wants, with the fixed Huffman codes precomputed bit-reversed.
private struct BitWriter {
    var bytes: [UInt8] = []
    private var buffer: UInt64 = 0
    private var count: UInt64 = 0

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    @inline(__always) mutating func write(_ value: Int, bits: Int) {
        buffer |= UInt64(truncatingIfNeeded: value) << count
        count += UInt64(bits)
        if count >= 32 {
            bytes.append(UInt8(truncatingIfNeeded: buffer))
            bytes.append(UInt8(truncatingIfNeeded: buffer >> 8))
            bytes.append(UInt8(truncatingIfNeeded: buffer >> 16))
            bytes.append(UInt8(truncatingIfNeeded: buffer >> 24))
            buffer >>= 32
            count -= 32
        }
    }

    mutating func flush() {
        while count > 0 {
            bytes.append(UInt8(truncatingIfNeeded: buffer))
            buffer >>= 8
            count = count >= 8 ? count - 8 : 0
        }
        buffer = 0
    }

    /// A literal byte or the end-of-block symbol (256).
    @inline(__always) mutating func writeLiteral(_ symbol: Int) {
        write(Int(Tables.literalCode[symbol]), bits: Int(Tables.literalBits[symbol]))
    }

    @inline(__always) mutating func writeMatch(length: Int, distance: Int) {
        let lengthCode = Int(Tables.lengthCode[length])
        writeLiteral(257 + lengthCode)
        let lengthExtra = Tables.lengthExtra[lengthCode]
        if lengthExtra > 0 { write(length - Tables.lengthBases[lengthCode], bits: lengthExtra) }
        let distanceCode = distance <= 256 ? Int(Tables.distanceCodeSmall[distance - 1]) : Int(Tables.distanceCodeLarge[(distance - 1) >> 7])
        write(Int(Tables.distanceCode[distanceCode]), bits: 5)
        let distanceExtra = Tables.distanceExtra[distanceCode]
        if distanceExtra > 0 { write(distance - Tables.distanceBases[distanceCode], bits: distanceExtra) }
    }
}

/// The fixed-code tables of RFC 1951 §3.2.5–3.2.6.
private enum Tables {
    static let lengthBases = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    static let distanceBases = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
    static let distanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]

    static func reversed(_ code: Int, _ bits: Int) -> UInt16 {
        var result = 0
        for bit in 0..<bits where code & (1 << bit) != 0 { result |= 1 << (bits - 1 - bit) }
        return UInt16(result)
    }

    /// Literal/length symbols 0…287: bit-reversed codes and their lengths.
    static let literalBits: [UInt8] = (0..<288).map { $0 < 144 ? 8 : $0 < 256 ? 9 : $0 < 280 ? 7 : 8 }
    static let literalCode: [UInt16] = (0..<288).map { symbol in
        switch symbol {
        case 0..<144: reversed(0x30 + symbol, 8)
        case 144..<256: reversed(0x190 + symbol - 144, 9)
        case 256..<280: reversed(symbol - 256, 7)
        default: reversed(0xC0 + symbol - 280, 8)
        }
    }
    /// Length 0…258 → length code index 0…28.
    static let lengthCode: [UInt8] = (0...258).map { length in
        guard length >= 3 else { return 0 }
        var index = lengthBases.count - 1
        while lengthBases[index] > length { index -= 1 }
        return UInt8(index)
    }
    static let distanceCode: [UInt16] = (0..<30).map { reversed($0, 5) }
    static func code(forDistance distance: Int) -> UInt8 {
        var index = distanceBases.count - 1
        while distanceBases[index] > distance { index -= 1 }
        return UInt8(index)
    }
    /// Distances 1…256, by distance − 1.
    static let distanceCodeSmall: [UInt8] = (1...256).map(code(forDistance:))
    /// Distances 257…32768, by (distance − 1) >> 7.
    static let distanceCodeLarge: [UInt8] = (0..<256).map { code(forDistance: max(257, ($0 << 7) + 1)) }
}
