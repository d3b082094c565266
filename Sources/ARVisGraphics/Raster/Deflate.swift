/// A zlib stream (RFC 1950) of DEFLATE data (RFC 1951): LZ77 matches found through hash chains,
/// each block written with its own dynamic Huffman codes, or the fixed ones when they are shorter.
///
/// Tuned for rendered pictures, which are long runs of the same bytes: the chain search stops at the
/// first maximal match, and only the start of a long match is entered into the hash chains.
enum Deflate {
    /// - Parameter chainLimit: how many earlier places with the same 3 bytes a match is looked for
    ///   at; fewer is faster on noisy pictures (photographs, texture maps) at some size.
    static func zlib(_ input: [UInt8], dynamic: Bool = true, chainLimit: Int = maxChain) -> [UInt8] {
        var writer = BitWriter(capacity: input.count / 8 + 1024)
        writer.bytes.append(0x78)
        writer.bytes.append(0x01)
        var block = TokenBlock(dynamic: dynamic)
        input.withUnsafeBufferPointer { compress($0, into: &block, writer: &writer, chainLimit: max(1, chainLimit)) }
        writer.flush()
        let checksum = adler32(input)
        for shift in [24, 16, 8, 0] { writer.bytes.append(UInt8(truncatingIfNeeded: checksum >> UInt32(shift))) }
        return writer.bytes
    }

    private static let windowSize = 32_768
    private static let hashBits = 15
    static let maxChain = 16
    private static let maxMatch = 258
    /// Matches longer than this enter only their first positions into the hash chains.
    private static let maxInsert = 8

    private static func compress(
        _ data: UnsafeBufferPointer<UInt8>, into block: inout TokenBlock, writer: inout BitWriter, chainLimit: Int
    ) {
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
        while position < count {
            var bestLength = 0
            var bestDistance = 0
            if position + 2 < count {
                let key = hash(position)
                var candidate = Int(head[key])
                previous[position & mask] = head[key]
                head[key] = Int32(position)
                var chain = chainLimit
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
                block.addMatch(length: bestLength, distance: bestDistance)
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
                block.addLiteral(data[position])
                position += 1
            }
            if block.isFull { block.write(to: &writer, isLast: position >= count) }
        }
        if !block.isEmpty || count == 0 { block.write(to: &writer, isLast: true) }
    }

    /// How many bytes from `position` repeat those from `candidate`, up to `limit`, compared eight at a time.
    @inline(__always) private static func matchLength(
        _ data: UnsafeBufferPointer<UInt8>, _ candidate: Int, _ position: Int, _ limit: Int
    ) -> Int {
        let base = UnsafeRawPointer(data.baseAddress!)
        var length = 0
        while length + 8 <= limit {
            let difference =
                base.loadUnaligned(fromByteOffset: candidate + length, as: UInt64.self)
                ^ base.loadUnaligned(fromByteOffset: position + length, as: UInt64.self)
            if difference != 0 { return length + difference.littleEndian.trailingZeroBitCount / 8 }
            length += 8
        }
        while length < limit && data[candidate + length] == data[position + length] { length += 1 }
        return length
    }

    static func adler32(_ input: [UInt8]) -> UInt32 {
        input.withUnsafeBufferPointer { data in
            var a: UInt32 = 1
            var b: UInt32 = 0
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

/// Packs bits least-significant first, as DEFLATE wants.
private struct BitWriter {
    var bytes: [UInt8] = []
    private var buffer: UInt64 = 0
    private var count: UInt64 = 0

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    /// Appends the low `bits` bits of `value` (at most 32).
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
}

/// The literals and matches of one block, with their symbol counts, written with whichever of its
/// own Huffman codes or the fixed ones is shorter.
private struct TokenBlock {
    /// A literal byte, or `1 << 31 | length << 16 | distance`.
    private var tokens: [UInt32] = []
    private var literalCounts = [Int](repeating: 0, count: 286)
    private var distanceCounts = [Int](repeating: 0, count: 30)
    private let dynamic: Bool
    private static let capacity = 1 << 16

    init(dynamic: Bool) {
        self.dynamic = dynamic
        tokens.reserveCapacity(Self.capacity)
    }

    var isFull: Bool { tokens.count >= Self.capacity }
    var isEmpty: Bool { tokens.isEmpty }

    @inline(__always) mutating func addLiteral(_ byte: UInt8) {
        tokens.append(UInt32(byte))
        literalCounts[Int(byte)] += 1
    }

    @inline(__always) mutating func addMatch(length: Int, distance: Int) {
        tokens.append(1 << 31 | UInt32(length) << 16 | UInt32(distance))
        literalCounts[257 + Int(DeflateTables.lengthCode[length])] += 1
        distanceCounts[DeflateTables.distanceCode(distance)] += 1
    }

    /// Writes the block and empties it.
    mutating func write(to writer: inout BitWriter, isLast: Bool) {
        literalCounts[256] = 1
        writer.write(isLast ? 1 : 0, bits: 1)
        let fixed = (literals: DeflateTables.fixedLiteralLengths, distances: DeflateTables.fixedDistanceLengths)
        var header: DynamicHeader?
        if dynamic {
            let candidate = DynamicHeader(literalCounts: literalCounts, distanceCounts: distanceCounts)
            if candidate.bitCount + cost(candidate.literalLengths, candidate.distanceLengths) < 3
                + cost(fixed.literals, fixed.distances)
            {
                header = candidate
            }
        }
        let literalLengths = header?.literalLengths ?? fixed.literals
        let distanceLengths = header?.distanceLengths ?? fixed.distances
        if let header {
            writer.write(2, bits: 2)
            header.write(to: &writer)
        } else {
            writer.write(1, bits: 2)
        }
        let literalCodes = HuffmanCode.codes(literalLengths)
        let distanceCodes = HuffmanCode.codes(distanceLengths)
        for token in tokens {
            if token & (1 << 31) == 0 {
                writer.write(Int(literalCodes[Int(token)]), bits: Int(literalLengths[Int(token)]))
                continue
            }
            let length = Int(token >> 16 & 0x1FF)
            let distance = Int(token & 0xFFFF)
            let lengthCode = Int(DeflateTables.lengthCode[length])
            writer.write(Int(literalCodes[257 + lengthCode]), bits: Int(literalLengths[257 + lengthCode]))
            let lengthExtra = DeflateTables.lengthExtra[lengthCode]
            if lengthExtra > 0 { writer.write(length - DeflateTables.lengthBases[lengthCode], bits: lengthExtra) }
            let distanceCode = DeflateTables.distanceCode(distance)
            writer.write(Int(distanceCodes[distanceCode]), bits: Int(distanceLengths[distanceCode]))
            let distanceExtra = DeflateTables.distanceExtra[distanceCode]
            if distanceExtra > 0 {
                writer.write(distance - DeflateTables.distanceBases[distanceCode], bits: distanceExtra)
            }
        }
        writer.write(Int(literalCodes[256]), bits: Int(literalLengths[256]))
        tokens.removeAll(keepingCapacity: true)
        for index in literalCounts.indices { literalCounts[index] = 0 }
        for index in distanceCounts.indices { distanceCounts[index] = 0 }
    }

    /// The Huffman-coded bits of the block's symbols under the given lengths (extra bits are the same for every code).
    private func cost(_ literalLengths: [UInt8], _ distanceLengths: [UInt8]) -> Int {
        var bits = 0
        for (symbol, count) in literalCounts.enumerated() { bits += count * Int(literalLengths[symbol]) }
        for (symbol, count) in distanceCounts.enumerated() { bits += count * Int(distanceLengths[symbol]) }
        return bits
    }
}

/// A dynamic block's code lengths and the header that transmits them (RFC 1951 §3.2.7).
private struct DynamicHeader {
    let literalLengths: [UInt8]
    let distanceLengths: [UInt8]
    /// The header's run-length symbols: code-length symbol and its extra bits.
    private let runs: [(symbol: Int, extra: Int)]
    private let codeLengthLengths: [UInt8]
    private let literalCount: Int, distanceCount: Int, orderCount: Int

    init(literalCounts: [Int], distanceCounts: [Int]) {
        literalLengths = HuffmanCode.lengths(literalCounts, limit: 15)
        distanceLengths = HuffmanCode.lengths(distanceCounts, limit: 15)
        literalCount = max(257, (literalLengths.lastIndex { $0 > 0 } ?? 0) + 1)
        distanceCount = max(1, (distanceLengths.lastIndex { $0 > 0 } ?? 0) + 1)
        runs = Self.runLengths(Array(literalLengths[..<literalCount]) + Array(distanceLengths[..<distanceCount]))
        var counts = [Int](repeating: 0, count: 19)
        for run in runs { counts[run.symbol] += 1 }
        let codeLengthLengths = HuffmanCode.lengths(counts, limit: 7)
        self.codeLengthLengths = codeLengthLengths
        orderCount = max(4, (DeflateTables.codeLengthOrder.lastIndex { codeLengthLengths[$0] > 0 } ?? 0) + 1)
    }

    /// The header's size in bits.
    var bitCount: Int {
        var bits = 3 + 14 + 3 * orderCount
        for run in runs { bits += Int(codeLengthLengths[run.symbol]) + Self.extraBits(run.symbol) }
        return bits
    }

    func write(to writer: inout BitWriter) {
        writer.write(literalCount - 257, bits: 5)
        writer.write(distanceCount - 1, bits: 5)
        writer.write(orderCount - 4, bits: 4)
        for index in 0..<orderCount {
            writer.write(Int(codeLengthLengths[DeflateTables.codeLengthOrder[index]]), bits: 3)
        }
        let codes = HuffmanCode.codes(codeLengthLengths)
        for run in runs {
            writer.write(Int(codes[run.symbol]), bits: Int(codeLengthLengths[run.symbol]))
            writer.write(run.extra, bits: Self.extraBits(run.symbol))
        }
    }

    /// The extra bits after a code-length symbol: the repeat count of 16, 17 and 18.
    private static func extraBits(_ symbol: Int) -> Int {
        switch symbol {
        case 16: 2
        case 17: 3
        case 18: 7
        default: 0
        }
    }

    /// Code lengths as symbols 0–15, 16 (repeat the previous 3–6 times), 17 (3–10 zeros) and 18 (11–138 zeros).
    private static func runLengths(_ lengths: [UInt8]) -> [(symbol: Int, extra: Int)] {
        var runs: [(symbol: Int, extra: Int)] = []
        var index = 0
        while index < lengths.count {
            let value = lengths[index]
            var end = index + 1
            while end < lengths.count, lengths[end] == value { end += 1 }
            var left = end - index
            if value == 0 {
                while left >= 11 {
                    let take = min(138, left)
                    runs.append((18, take - 11))
                    left -= take
                }
                if left >= 3 {
                    runs.append((17, left - 3))
                    left = 0
                }
            } else {
                runs.append((Int(value), 0))
                left -= 1
                while left >= 3 {
                    let take = min(6, left)
                    runs.append((16, take - 3))
                    left -= take
                }
            }
            runs += repeatElement((symbol: Int(value), extra: 0), count: left)
            index = end
        }
        return runs
    }
}

/// Length-limited Huffman codes built from symbol counts, and their canonical bit-reversed codes.
enum HuffmanCode {
    /// The code length of each symbol (0 for unused ones) so that no code exceeds `limit` bits. At
    /// least two symbols get a code, so the code is complete, as every decoder accepts.
    static func lengths(_ counts: [Int], limit: Int) -> [UInt8] {
        var weights = counts
        var used = weights.indices.filter { weights[$0] > 0 }
        for filler in weights.indices where used.count < 2 && weights[filler] == 0 {
            weights[filler] = 1
            used.append(filler)
        }
        while true {
            let lengths = treeDepths(weights, used: used)
            if lengths.allSatisfy({ Int($0) <= limit }) { return lengths }
            // Flatten the distribution until the deepest code fits; equal weights give a balanced tree.
            for symbol in used { weights[symbol] = (weights[symbol] + 1) / 2 }
        }
    }

    /// Each symbol's depth in a Huffman tree over `used`, built with two queues from the sorted leaves.
    private static func treeDepths(_ weights: [Int], used: [Int]) -> [UInt8] {
        let leaves = used.sorted { weights[$0] < weights[$1] }
        let leafCount = leaves.count
        var nodeWeights = leaves.map { weights[$0] }
        var parents = [Int](repeating: 0, count: 2 * leafCount - 1)
        var nextLeaf = 0
        var nextInner = leafCount
        func takeLightest() -> Int {
            if nextLeaf < leafCount, nextInner >= nodeWeights.count || nodeWeights[nextLeaf] <= nodeWeights[nextInner] {
                nextLeaf += 1
                return nextLeaf - 1
            }
            nextInner += 1
            return nextInner - 1
        }
        for _ in 0..<leafCount - 1 {
            let first = takeLightest()
            let second = takeLightest()
            parents[first] = nodeWeights.count
            parents[second] = nodeWeights.count
            nodeWeights.append(nodeWeights[first] + nodeWeights[second])
        }
        var depths = [Int](repeating: 0, count: nodeWeights.count)
        for node in stride(from: nodeWeights.count - 2, through: 0, by: -1) { depths[node] = depths[parents[node]] + 1 }
        var lengths = [UInt8](repeating: 0, count: weights.count)
        for (leaf, symbol) in leaves.enumerated() { lengths[symbol] = UInt8(depths[leaf]) }
        return lengths
    }

    /// Canonical codes for `lengths` (RFC 1951 §3.2.2), bit-reversed for least-significant-first writing.
    static func codes(_ lengths: [UInt8]) -> [UInt16] {
        var counts = [Int](repeating: 0, count: 16)
        for length in lengths { counts[Int(length)] += 1 }
        counts[0] = 0
        var next = [Int](repeating: 0, count: 16)
        var code = 0
        for bits in 1...15 {
            code = (code + counts[bits - 1]) << 1
            next[bits] = code
        }
        return lengths.map { length in
            guard length > 0 else { return 0 }
            let bits = Int(length)
            let value = next[bits]
            next[bits] += 1
            var reversed = 0
            for bit in 0..<bits where value & (1 << bit) != 0 { reversed |= 1 << (bits - 1 - bit) }
            return UInt16(reversed)
        }
    }
}

/// The length and distance tables of RFC 1951 §3.2.5, shared by ``Deflate`` and ``Inflate``.
enum DeflateTables {
    static let lengthBases = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227,
        258,
    ]
    static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    static let distanceBases = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097,
        6145, 8193, 12289, 16385, 24577,
    ]
    static let distanceExtra = [
        0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
    ]
    /// The order code-length code lengths are sent in.
    static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    /// The fixed literal/length code lengths (§3.2.6).
    static let fixedLiteralLengths: [UInt8] = (0..<288).map { $0 < 144 ? 8 : $0 < 256 ? 9 : $0 < 280 ? 7 : 8 }
    static let fixedDistanceLengths = [UInt8](repeating: 5, count: 30)

    /// Length 0…258 → length code index 0…28.
    static let lengthCode: [UInt8] = (0...258).map { length in
        guard length >= 3 else { return 0 }
        var index = lengthBases.count - 1
        while lengthBases[index] > length { index -= 1 }
        return UInt8(index)
    }

    private static func code(forDistance distance: Int) -> UInt8 {
        var index = distanceBases.count - 1
        while distanceBases[index] > distance { index -= 1 }
        return UInt8(index)
    }
    /// Distances 1…256, by distance − 1.
    private static let distanceCodeSmall: [UInt8] = (1...256).map(code(forDistance:))
    /// Distances 257…32768, by (distance − 1) >> 7.
    private static let distanceCodeLarge: [UInt8] = (0..<256).map { code(forDistance: max(257, ($0 << 7) + 1)) }

    /// The distance code index 0…29 of a distance 1…32768.
    @inline(__always) static func distanceCode(_ distance: Int) -> Int {
        distance <= 256 ? Int(distanceCodeSmall[distance - 1]) : Int(distanceCodeLarge[(distance - 1) >> 7])
    }
}
