/// A JPEG Huffman table (T.81 C): a 9-bit lookup for short codes and the canonical ranges for the rest.
struct JPEGHuffman {
    private static let fastBits = 9
    /// By the next 9 bits: length << 8 | symbol, or 0 when the code is longer.
    private var fast = [UInt16](repeating: 0, count: 1 << 9)
    /// The largest code of each length (−1 when none) and where its symbols start.
    private var maxCode = [Int](repeating: -1, count: 18)
    private var offsets = [Int](repeating: 0, count: 17)
    private let symbols: [UInt8]

    /// Builds the table from the number of codes of each length 1…16; `nil` when they overflow.
    init?(counts: [Int], symbols: [UInt8]) {
        self.symbols = symbols
        var code = 0
        var index = 0
        for length in 1...16 {
            offsets[length] = index - code
            for _ in 0..<counts[length - 1] {
                guard code < 1 << length else { return nil }
                if length <= Self.fastBits {
                    let first = code << (Self.fastBits - length)
                    for slot in first..<first + 1 << (Self.fastBits - length) {
                        fast[slot] = UInt16(length << 8) | UInt16(symbols[index])
                    }
                }
                code += 1
                index += 1
            }
            guard code <= 1 << length else { return nil }
            maxCode[length] = counts[length - 1] > 0 ? code - 1 : -1
            code <<= 1
        }
    }

    /// Reads one symbol; a code not in the table reads as 0.
    @inline(__always) func decode(_ reader: inout JPEGBits) -> Int {
        let entry = fast[reader.peek(Self.fastBits)]
        if entry != 0 {
            reader.skip(Int(entry >> 8))
            return Int(entry & 0xFF)
        }
        var code = 0
        for length in 1...16 {
            code = code << 1 | reader.bit()
            if code <= maxCode[length] { return Int(symbols[offsets[length] + code]) }
        }
        return 0
    }
}

/// Entropy-coded data read most-significant bit first, with stuffed zero bytes removed. At a marker
/// (or the end of the file) it reads zeros, and once a read has needed them it is `exhausted`, as
/// libjpeg's reader is ("insufficient data"): the block being read ends on zeros, and the scan leaves
/// the blocks after it as they are, so a damaged or cut-off photo shows grey where its data ends.
struct JPEGBits {
    private let bytes: [UInt8]
    private(set) var position: Int
    private var buffer: UInt64 = 0
    private var count = 0
    private var atMarker = false
    /// How many of the buffered bits are zeros added past the data.
    private var padding = 0
    /// Whether a read has taken bits past the data, since the start or the last restart marker.
    private(set) var exhausted = false

    init(_ bytes: [UInt8], position: Int) {
        self.bytes = bytes
        self.position = position
    }

    @inline(__always) private mutating func refill() {
        while count <= 56 {
            var byte: UInt8 = 0
            if !atMarker, position < bytes.count {
                byte = bytes[position]
                if byte == 0xFF {
                    if position + 1 < bytes.count, bytes[position + 1] == 0 {
                        position += 2
                    } else {
                        atMarker = true
                        byte = 0
                    }
                } else {
                    position += 1
                }
            } else {
                atMarker = true
            }
            if atMarker { padding += 8 }
            buffer |= UInt64(byte) << UInt64(56 - count)
            count += 8
        }
    }

    @inline(__always) mutating func peek(_ n: Int) -> Int {
        if count < n { refill() }
        return Int(buffer >> UInt64(64 - n))
    }

    @inline(__always) mutating func skip(_ n: Int) {
        buffer <<= UInt64(n)
        count -= n
        if count < padding {
            exhausted = true
            padding = count
        }
    }

    @inline(__always) mutating func bit() -> Int {
        let value = peek(1)
        skip(1)
        return value
    }

    @inline(__always) mutating func bits(_ n: Int) -> Int {
        guard n > 0 else { return 0 }
        let value = peek(n)
        skip(n)
        return value
    }

    /// `n` bits as a signed magnitude category value (T.81 F.2.2.1 EXTEND). Categories past 16,
    /// which only damaged tables hold, read as 16.
    @inline(__always) mutating func extended(_ category: Int) -> Int {
        guard category > 0 else { return 0 }
        let n = min(category, 16)
        let value = bits(n)
        return value < 1 << (n - 1) ? value - (1 << n) + 1 : value
    }

    /// Drops the buffered bits and moves past the next restart marker; reading starts afresh there.
    /// When another marker (or the end) comes first, an exhausted reader stays exhausted, as libjpeg's.
    mutating func restart() {
        buffer = 0
        count = 0
        padding = 0
        atMarker = false
        while position + 1 < bytes.count {
            if bytes[position] == 0xFF, (0xD0...0xD7).contains(bytes[position + 1]) {
                position += 2
                exhausted = false
                return
            }
            if bytes[position] == 0xFF, bytes[position + 1] != 0, bytes[position + 1] != 0xFF { return }
            position += 1
        }
    }
}

/// One scan: which components it carries, with which tables, and which coefficients (progressive
/// spectral selection and successive approximation).
struct JPEGScan {
    struct Member {
        let component: Int
        let dc: JPEGHuffman?
        let ac: JPEGHuffman?
    }

    let members: [Member]
    let spectralStart: Int, spectralEnd: Int
    let successiveHigh: Int, successiveLow: Int
    private var endOfBandRun = 0

    init(members: [Member], spectralStart: Int, spectralEnd: Int, successiveHigh: Int, successiveLow: Int) {
        self.members = members
        self.spectralStart = spectralStart
        self.spectralEnd = spectralEnd
        self.successiveHigh = successiveHigh
        self.successiveLow = successiveLow
    }

    /// Decodes the scan's entropy-coded data starting at `position` into the frame's coefficients;
    /// returns where the data ends.
    mutating func decode(_ bytes: [UInt8], from position: Int, into frame: inout JPEGFrame, restartInterval: Int) -> Int
    {
        var reader = JPEGBits(bytes, position: position)
        for member in members { frame.components[member.component].prediction = 0 }
        let single = members.count == 1
        let (blocksPerLine, blocksPerColumn) = (
            frame.components[members[0].component].blocksPerLine, frame.components[members[0].component].blocksPerColumn
        )
        let unitsPerLine = single ? blocksPerLine : frame.mcusPerLine
        let unitCount = single ? blocksPerLine * blocksPerColumn : frame.mcusPerLine * frame.mcusPerColumn
        for unit in 0..<unitCount {
            if restartInterval > 0, unit > 0, unit % restartInterval == 0 {
                reader.restart()
                endOfBandRun = 0
                for member in members { frame.components[member.component].prediction = 0 }
            }
            // Past the data, the blocks up to the next restart marker stay as they are.
            guard !reader.exhausted else {
                if restartInterval == 0 { break }
                continue
            }
            let row = unit / unitsPerLine
            let column = unit % unitsPerLine
            for member in members {
                // Only sizes are read here: a copy of the component would share, and so copy, its coefficients.
                let storedPerLine = frame.components[member.component].storedPerLine
                let (across, down) =
                    single
                    ? (1, 1)
                    : (frame.components[member.component].horizontal, frame.components[member.component].vertical)
                for v in 0..<down {
                    for h in 0..<across {
                        let block = ((row * down + v) * storedPerLine + column * across + h) * 64
                        decodeBlock(&reader, member, &frame.components[member.component], at: block)
                    }
                }
            }
        }
        return reader.position
    }

    private mutating func decodeBlock(
        _ reader: inout JPEGBits, _ member: Member, _ component: inout JPEGComponent, at base: Int
    ) {
        component.coefficients.withUnsafeMutableBufferPointer { all in
            guard let start = all.baseAddress else { return }
            let block = start + base
            if spectralStart == 0 {
                decodeDC(&reader, member, &component.prediction, block)
            }
            if spectralEnd > 0, let ac = member.ac {
                if successiveHigh == 0 {
                    decodeACFirst(&reader, ac, block)
                } else {
                    refineAC(&reader, ac, block)
                }
            }
        }
    }

    private func decodeDC(
        _ reader: inout JPEGBits, _ member: Member, _ prediction: inout Int, _ block: UnsafeMutablePointer<Int16>
    ) {
        if successiveHigh > 0 {
            if reader.bit() == 1 { block[0] |= Int16(truncatingIfNeeded: 1 << successiveLow) }
            return
        }
        guard let dc = member.dc else { return }
        let category = dc.decode(&reader)
        prediction = max(-32_768, min(32_767, prediction + reader.extended(category)))
        block[0] = Int16(truncatingIfNeeded: prediction << successiveLow)
    }

    /// Baseline blocks and the first pass of a progressive band.
    private mutating func decodeACFirst(
        _ reader: inout JPEGBits, _ ac: JPEGHuffman, _ block: UnsafeMutablePointer<Int16>
    ) {
        if endOfBandRun > 0 {
            endOfBandRun -= 1
            return
        }
        var k = max(1, spectralStart)
        while k <= spectralEnd {
            let symbol = ac.decode(&reader)
            let run = symbol >> 4
            let size = symbol & 15
            if size == 0 {
                guard run == 15 else {
                    endOfBandRun = (1 << run) - 1 + reader.bits(run)
                    return
                }
                k += 16
                continue
            }
            k += run
            guard k <= 63 else { return }
            block[JPEGFrame.zigzag[k]] = Int16(truncatingIfNeeded: reader.extended(size) << successiveLow)
            k += 1
        }
    }

    /// A later pass of a progressive band: one more bit of every coefficient already seen, and new ones of ±1 (T.81 G.1.2.3).
    private mutating func refineAC(_ reader: inout JPEGBits, _ ac: JPEGHuffman, _ block: UnsafeMutablePointer<Int16>) {
        let plus = Int16(truncatingIfNeeded: 1 << successiveLow)
        let minus = Int16(truncatingIfNeeded: -1 << successiveLow)
        func correct(_ index: Int) {
            if reader.bit() == 1, block[index] & plus == 0 { block[index] &+= block[index] >= 0 ? plus : minus }
        }
        var k = spectralStart
        if endOfBandRun == 0 {
            while k <= spectralEnd {
                let symbol = ac.decode(&reader)
                var run = symbol >> 4
                var value: Int16 = 0
                if symbol & 15 != 0 {
                    value = reader.bit() == 1 ? plus : minus
                } else if run != 15 {
                    endOfBandRun = (1 << run) + reader.bits(run)
                    break
                }
                while k <= spectralEnd {
                    let index = JPEGFrame.zigzag[k]
                    if block[index] != 0 {
                        correct(index)
                    } else {
                        if run == 0 { break }
                        run -= 1
                    }
                    k += 1
                }
                if value != 0, k <= 63 { block[JPEGFrame.zigzag[k]] = value }
                k += 1
            }
        }
        if endOfBandRun > 0 {
            while k <= spectralEnd {
                let index = JPEGFrame.zigzag[k]
                if block[index] != 0 { correct(index) }
                k += 1
            }
            endOfBandRun -= 1
        }
    }
}
