/// The module grid of a QR Code while it is built: function patterns (finders, timing, alignment,
/// format and version information) and the data placed around them.
struct QRMatrix {
    let version: Int
    let size: Int
    private(set) var dark: [Bool]
    /// Modules of the function patterns, which data and masks leave alone.
    private var isFunction: [Bool]

    init(version: Int) {
        self.version = version
        size = 17 + 4 * version
        dark = [Bool](repeating: false, count: size * size)
        isFunction = dark
        drawFunctionPatterns()
    }

    /// Modules left for data and error correction in a version (all but function patterns).
    static func dataModuleCount(version: Int) -> Int {
        var count = (16 * version + 128) * version + 64
        if version >= 2 {
            let alignments = version / 7 + 2
            count -= (25 * alignments - 10) * alignments - 55
            if version >= 7 { count -= 36 }
        }
        return count
    }

    private mutating func set(_ x: Int, _ y: Int, _ isDark: Bool) {
        dark[y * size + x] = isDark
        isFunction[y * size + x] = true
    }

    private mutating func drawFunctionPatterns() {
        for index in 0..<size {
            set(6, index, index % 2 == 0)
            set(index, 6, index % 2 == 0)
        }
        for (x, y) in [(3, 3), (size - 4, 3), (3, size - 4)] { drawFinder(x, y) }
        let centres = alignmentCentres
        for (i, x) in centres.enumerated() {
            for (j, y) in centres.enumerated() {
                // The three corners taken by finders have no alignment pattern.
                if (i == 0 && j == 0) || (i == 0 && j == centres.count - 1) || (i == centres.count - 1 && j == 0) {
                    continue
                }
                for dy in -2...2 {
                    for dx in -2...2 { set(x + dx, y + dy, max(abs(dx), abs(dy)) != 1) }
                }
            }
        }
        drawFormat(0)  // reserves the format areas; written for real once the mask is chosen
        drawVersion()
    }

    /// A finder (7 × 7 rings) centred at (x, y), with its light separator where it fits.
    private mutating func drawFinder(_ x: Int, _ y: Int) {
        for dy in -4...4 {
            for dx in -4...4 {
                let distance = max(abs(dx), abs(dy))
                let (px, py) = (x + dx, y + dy)
                if (0..<size).contains(px), (0..<size).contains(py) { set(px, py, distance != 2 && distance != 4) }
            }
        }
    }

    /// The alignment pattern centres along each axis, as the standard's table E.1 spaces them.
    private var alignmentCentres: [Int] {
        guard version >= 2 else { return [] }
        let count = version / 7 + 2
        let step = version == 32 ? 26 : (version * 4 + count * 2 + 1) / (count * 2 - 2) * 2
        return [6] + (0..<count - 1).map { size - 7 - $0 * step }.reversed()
    }

    /// The 15 format bits (level and mask, BCH-protected, XOR 0x5412) in both copies, and the dark module.
    mutating func drawFormat(_ bits: Int) {
        func bit(_ index: Int) -> Bool { bits >> index & 1 == 1 }
        for index in 0...5 { set(8, index, bit(index)) }
        set(8, 7, bit(6))
        set(8, 8, bit(7))
        set(7, 8, bit(8))
        for index in 9..<15 { set(14 - index, 8, bit(index)) }
        for index in 0..<8 { set(size - 1 - index, 8, bit(index)) }
        for index in 8..<15 { set(8, size - 15 + index, bit(index)) }
        set(8, size - 8, true)
    }

    static func formatBits(level: QRCode.ErrorCorrection, mask: Int) -> Int {
        let data = level.formatBits << 3 | mask
        var remainder = data
        for _ in 0..<10 { remainder = remainder << 1 ^ (remainder >> 9) * 0x537 }
        return (data << 10 | remainder) ^ 0x5412
    }

    /// The 18 version bits (BCH-protected) beside two finders, from version 7.
    private mutating func drawVersion() {
        guard version >= 7 else { return }
        var remainder = version
        for _ in 0..<12 { remainder = remainder << 1 ^ (remainder >> 11) * 0x1F25 }
        let bits = version << 12 | remainder
        for index in 0..<18 {
            let isDark = bits >> index & 1 == 1
            let (a, b) = (size - 11 + index % 3, index / 3)
            set(a, b, isDark)
            set(b, a, isDark)
        }
    }

    /// Places the codewords' bits in the zig-zag of two-module columns, bottom right first,
    /// skipping the vertical timing pattern.
    mutating func placeData(_ codewords: [UInt8]) {
        var bitIndex = 0
        var right = size - 1
        while right >= 1 {
            if right == 6 { right = 5 }
            let upward = (right + 1) & 2 == 0
            for step in 0..<size {
                let y = upward ? size - 1 - step : step
                for x in [right, right - 1] where !isFunction[y * size + x] {
                    if bitIndex < codewords.count * 8 {
                        dark[y * size + x] = codewords[bitIndex >> 3] >> (7 - bitIndex & 7) & 1 == 1
                        bitIndex += 1
                    }
                }
            }
            right -= 2
        }
    }

    /// The grid with mask `mask` applied to the data and its format information written.
    func masked(_ mask: Int, level: QRCode.ErrorCorrection) -> QRMatrix {
        var copy = self
        for y in 0..<size {
            for x in 0..<size where !isFunction[y * size + x] {
                let flip: Bool
                switch mask {
                case 0: flip = (x + y) % 2 == 0
                case 1: flip = y % 2 == 0
                case 2: flip = x % 3 == 0
                case 3: flip = (x + y) % 3 == 0
                case 4: flip = (x / 3 + y / 2) % 2 == 0
                case 5: flip = x * y % 2 + x * y % 3 == 0
                case 6: flip = (x * y % 2 + x * y % 3) % 2 == 0
                default: flip = ((x + y) % 2 + x * y % 3) % 2 == 0
                }
                if flip { copy.dark[y * size + x].toggle() }
            }
        }
        copy.drawFormat(Self.formatBits(level: level, mask: mask))
        return copy
    }

    /// The standard's penalty (rules N1–N4): long runs, 2 × 2 blocks, finder look-alikes, imbalance.
    var penalty: Int {
        var score = 0
        for line in 0..<size {
            let row = (0..<size).map { dark[line * size + $0] }
            let column = (0..<size).map { dark[$0 * size + line] }
            score +=
                Self.runPenalty(row) + Self.runPenalty(column) + Self.finderPenalty(row) + Self.finderPenalty(column)
        }
        for y in 0..<size - 1 {
            for x in 0..<size - 1 {
                let value = dark[y * size + x]
                if dark[y * size + x + 1] == value, dark[(y + 1) * size + x] == value,
                    dark[(y + 1) * size + x + 1] == value
                {
                    score += 3
                }
            }
        }
        let darkCount = dark.reduce(0) { $0 + ($1 ? 1 : 0) }
        let total = size * size
        let deviation = abs(darkCount * 20 - total * 10)
        score += ((deviation + total - 1) / total - 1) * 10
        return score
    }

    /// N1: 3 for each run of five like modules, plus 1 for each module beyond five.
    private static func runPenalty(_ line: [Bool]) -> Int {
        var score = 0
        var run = 1
        for index in 1...line.count {
            if index < line.count, line[index] == line[index - 1] {
                run += 1
                continue
            }
            if run >= 5 { score += run - 2 }
            run = 1
        }
        return score
    }

    /// N3: 40 for each dark-light-dark-dark-dark-light-dark with four light modules before or after
    /// (the quiet zone counts as light).
    private static func finderPenalty(_ line: [Bool]) -> Int {
        let padded = [Bool](repeating: false, count: 4) + line + [Bool](repeating: false, count: 4)
        let pattern: [Bool] = [true, false, true, true, true, false, true]
        var score = 0
        for start in 0...(padded.count - 7) where padded[start..<start + 7].elementsEqual(pattern) {
            let before = start >= 4 && !padded[start - 4..<start].contains(true)
            let after = start + 11 <= padded.count && !padded[start + 7..<start + 11].contains(true)
            if before || after { score += 40 }
        }
        return score
    }
}
