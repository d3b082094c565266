/// Decompresses zlib streams (RFC 1950) of DEFLATE data (RFC 1951): stored, fixed-Huffman and
/// dynamic-Huffman blocks.
///
/// The output is capped: a stream that would inflate past `limit` bytes (a decompression bomb) is
/// refused as soon as it crosses it, so memory stays bounded by what the caller expects.
///
/// ```swift
/// let rows = try Inflate.zlib(idat, limit: expectedLength)
/// ```
enum Inflate {
    /// Why a stream could not be inflated.
    struct Failure: Error, Sendable, Equatable {
        /// What was wrong, in a few words.
        let reason: String
    }

    /// The decompressed bytes of a zlib stream, checked against its Adler-32.
    /// - Throws: ``Failure`` for a malformed or truncated stream, a wrong checksum, or output past `limit`.
    static func zlib(_ bytes: [UInt8], limit: Int) throws(Failure) -> [UInt8] {
        guard bytes.count >= 6 else { throw Failure(reason: "the zlib stream is truncated") }
        guard bytes[0] & 0x0F == 8, (Int(bytes[0]) << 8 | Int(bytes[1])) % 31 == 0 else {
            throw Failure(reason: "the zlib header is invalid")
        }
        guard bytes[1] & 0x20 == 0 else { throw Failure(reason: "the zlib stream needs a preset dictionary") }
        var reader = InflateBits(bytes, start: 2)
        var output: [UInt8] = []
        output.reserveCapacity(min(limit, bytes.count * 4))
        try raw(&reader, into: &output, limit: limit)
        reader.alignToByte()
        guard let checksum = reader.bigEndianWord() else { throw Failure(reason: "the zlib checksum is missing") }
        guard checksum == Deflate.adler32(output) else { throw Failure(reason: "the zlib checksum does not match") }
        return output
    }

    /// Inflates raw DEFLATE blocks until the last one.
    static func raw(_ reader: inout InflateBits, into output: inout [UInt8], limit: Int) throws(Failure) {
        var isLast = false
        while !isLast {
            isLast = try reader.bits(1) == 1
            switch try reader.bits(2) {
            case 0: try stored(&reader, into: &output, limit: limit)
            case 1: try codes(&reader, HuffmanTables.fixed, into: &output, limit: limit)
            case 2: try codes(&reader, dynamicTables(&reader), into: &output, limit: limit)
            default: throw Failure(reason: "a DEFLATE block has the reserved type 3")
            }
        }
    }

    private static func stored(_ reader: inout InflateBits, into output: inout [UInt8], limit: Int) throws(Failure) {
        reader.alignToByte()
        let length = try reader.bits(16)
        let complement = try reader.bits(16)
        guard length ^ 0xFFFF == complement else { throw Failure(reason: "a stored block's length is corrupt") }
        guard output.count + length <= limit else { throw Failure(reason: "the data inflates past \(limit) bytes") }
        try reader.copyBytes(length, into: &output)
    }

    /// The literal/length and distance codes a dynamic block describes in its header.
    private static func dynamicTables(_ reader: inout InflateBits) throws(Failure) -> HuffmanTables {
        let literalCount = try reader.bits(5) + 257
        let distanceCount = try reader.bits(5) + 1
        let lengthCount = try reader.bits(4) + 4
        guard literalCount <= 286, distanceCount <= 30 else {
            throw Failure(reason: "a dynamic block declares too many codes")
        }
        var codeLengthLengths = [UInt8](repeating: 0, count: 19)
        for index in 0..<lengthCount {
            codeLengthLengths[DeflateTables.codeLengthOrder[index]] = UInt8(try reader.bits(3))
        }
        let codeLengthCode = try HuffmanDecoder(lengths: codeLengthLengths)
        var lengths: [UInt8] = []
        lengths.reserveCapacity(literalCount + distanceCount)
        while lengths.count < literalCount + distanceCount {
            let symbol = try codeLengthCode.decode(&reader)
            let (value, repeats): (UInt8, Int)
            switch symbol {
            case 0...15: (value, repeats) = (UInt8(symbol), 1)
            case 16:
                guard let previous = lengths.last else {
                    throw Failure(reason: "a code length repeat has nothing to repeat")
                }
                (value, repeats) = (previous, 3 + (try reader.bits(2)))
            case 17: (value, repeats) = (0, 3 + (try reader.bits(3)))
            default: (value, repeats) = (0, 11 + (try reader.bits(7)))
            }
            guard lengths.count + repeats <= literalCount + distanceCount else {
                throw Failure(reason: "code lengths overrun their count")
            }
            lengths.append(contentsOf: repeatElement(value, count: repeats))
        }
        guard lengths[256] > 0 else { throw Failure(reason: "a dynamic block has no end-of-block code") }
        return HuffmanTables(
            literals: try HuffmanDecoder(lengths: Array(lengths[..<literalCount])),
            distances: try HuffmanDecoder(lengths: Array(lengths[literalCount...])))
    }

    private static func codes(
        _ reader: inout InflateBits, _ tables: HuffmanTables, into output: inout [UInt8], limit: Int
    ) throws(Failure) {
        while true {
            let symbol = try tables.literals.decode(&reader)
            if symbol < 256 {
                guard output.count < limit else { throw Failure(reason: "the data inflates past \(limit) bytes") }
                output.append(UInt8(symbol))
                continue
            }
            if symbol == 256 { return }
            let lengthIndex = symbol - 257
            guard lengthIndex < 29 else { throw Failure(reason: "a length code is out of range") }
            let length =
                DeflateTables.lengthBases[lengthIndex] + (try reader.bits(DeflateTables.lengthExtra[lengthIndex]))
            let distanceIndex = try tables.distances.decode(&reader)
            guard distanceIndex < 30 else { throw Failure(reason: "a distance code is out of range") }
            let distance =
                DeflateTables.distanceBases[distanceIndex]
                + (try reader.bits(DeflateTables.distanceExtra[distanceIndex]))
            guard distance <= output.count else {
                throw Failure(reason: "a match reaches before the start of the data")
            }
            guard output.count + length <= limit else { throw Failure(reason: "the data inflates past \(limit) bytes") }
            let start = output.count - distance
            for offset in 0..<length { output.append(output[start + offset]) }
        }
    }
}

/// The two codes of a compressed block.
private struct HuffmanTables {
    let literals: HuffmanDecoder
    let distances: HuffmanDecoder

    /// RFC 1951 §3.2.6.
    static let fixed: HuffmanTables = {
        let literalLengths = (0..<288).map { UInt8($0 < 144 ? 8 : $0 < 256 ? 9 : $0 < 280 ? 7 : 8) }
        // The lengths are those of the RFC, so building cannot fail.
        let literals = (try? HuffmanDecoder(lengths: literalLengths)) ?? HuffmanDecoder.empty
        let distances = (try? HuffmanDecoder(lengths: [UInt8](repeating: 5, count: 30))) ?? HuffmanDecoder.empty
        return HuffmanTables(literals: literals, distances: distances)
    }()
}

/// A canonical Huffman code read least-significant bit first: a 9-bit table for short codes and the
/// counts per length for the rest.
struct HuffmanDecoder: Sendable {
    private static let fastBits = 9
    /// By the next 9 input bits: symbol << 4 | code length, or 0 when the code is longer.
    private var fast: [UInt16]
    private var counts: [Int]
    private var symbols: [Int]

    static let empty = HuffmanDecoder(fast: [], counts: [], symbols: [])

    private init(fast: [UInt16], counts: [Int], symbols: [Int]) {
        self.fast = fast
        self.counts = counts
        self.symbols = symbols
    }

    /// Builds the code from each symbol's length (0 = unused).
    /// - Throws: ``Inflate/Failure`` when the lengths over-subscribe the code space.
    init(lengths: [UInt8]) throws(Inflate.Failure) {
        counts = [Int](repeating: 0, count: 16)
        for length in lengths { counts[Int(length)] += 1 }
        counts[0] = 0
        var left = 1
        for length in 1...15 {
            left = left << 1 - counts[length]
            guard left >= 0 else { throw Inflate.Failure(reason: "a Huffman code is over-subscribed") }
        }
        var offsets = [Int](repeating: 0, count: 16)
        for length in 1..<15 { offsets[length + 1] = offsets[length] + counts[length] }
        symbols = [Int](repeating: 0, count: lengths.count)
        for (symbol, length) in lengths.enumerated() where length > 0 {
            symbols[offsets[Int(length)]] = symbol
            offsets[Int(length)] += 1
        }
        fast = [UInt16](repeating: 0, count: 1 << Self.fastBits)
        // The same canonical codes the encoder writes, bit-reversed: the table is indexed by the bits as read.
        let codes = HuffmanCode.codes(lengths)
        for (symbol, length) in lengths.enumerated() where (1...Self.fastBits).contains(Int(length)) {
            let entry = UInt16(symbol << 4 | Int(length))
            var slot = Int(codes[symbol])
            while slot < 1 << Self.fastBits {
                fast[slot] = entry
                slot += 1 << Int(length)
            }
        }
    }

    /// Reads one symbol.
    @inline(__always) func decode(_ reader: inout InflateBits) throws(Inflate.Failure) -> Int {
        let entry = fast[reader.peek(Self.fastBits)]
        if entry != 0 {
            try reader.skip(Int(entry & 15))
            return Int(entry >> 4)
        }
        var code = 0
        var first = 0
        var index = 0
        for length in 1...15 {
            code |= try reader.bits(1)
            let count = counts[length]
            if code - first < count { return symbols[index + code - first] }
            index += count
            first = (first + count) << 1
            code <<= 1
        }
        throw Inflate.Failure(reason: "a Huffman code is not in the table")
    }
}

/// Reads a byte array as DEFLATE does, least-significant bit first.
struct InflateBits {
    private let bytes: [UInt8]
    private var position: Int
    private var buffer: UInt64 = 0
    private var count = 0

    init(_ bytes: [UInt8], start: Int) {
        self.bytes = bytes
        position = start
    }

    @inline(__always) private mutating func refill() {
        while count <= 56, position < bytes.count {
            buffer |= UInt64(bytes[position]) << UInt64(count)
            position += 1
            count += 8
        }
    }

    /// The next `n` bits without consuming them, zero past the end.
    @inline(__always) mutating func peek(_ n: Int) -> Int {
        if count < n { refill() }
        return Int(truncatingIfNeeded: buffer & ((1 << UInt64(n)) - 1))
    }

    @inline(__always) mutating func skip(_ n: Int) throws(Inflate.Failure) {
        if count < n { refill() }
        guard count >= n else { throw Inflate.Failure(reason: "the compressed data is truncated") }
        buffer >>= UInt64(n)
        count -= n
    }

    /// The next `n` bits (0…16), as a number.
    @inline(__always) mutating func bits(_ n: Int) throws(Inflate.Failure) -> Int {
        let value = peek(n)
        try skip(n)
        return value
    }

    mutating func alignToByte() {
        let drop = count % 8
        buffer >>= UInt64(drop)
        count -= drop
    }

    /// A big-endian 32-bit word at a byte boundary.
    mutating func bigEndianWord() -> UInt32? {
        var word: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = try? bits(8) else { return nil }
            word = word << 8 | UInt32(byte)
        }
        return word
    }

    /// Copies `length` whole bytes (after ``alignToByte()``).
    mutating func copyBytes(_ length: Int, into output: inout [UInt8]) throws(Inflate.Failure) {
        var left = length
        while left > 0, count >= 8 {
            output.append(UInt8(truncatingIfNeeded: buffer))
            buffer >>= 8
            count -= 8
            left -= 1
        }
        guard position + left <= bytes.count else { throw Inflate.Failure(reason: "a stored block is truncated") }
        output.append(contentsOf: bytes[position..<position + left])
        position += left
    }
}
