import Foundation

/// Glyph outlines from an OpenType font's `CFF ` table (the `.otf` flavour, as Inter ships): the
/// charstrings and subroutines of a non-CID font, run by a Type 2 charstring interpreter.
struct CFFOutlines: Sendable {
    private let bytes: [UInt8]
    private let charStrings: Index
    private let globalSubroutines: Index
    private let localSubroutines: Index

    /// A CFF INDEX: `count` objects, each a byte range of the table.
    struct Index: Sendable {
        let ranges: [Range<Int>]
        /// Where the INDEX ends.
        let end: Int

        /// An INDEX of no objects.
        static let empty = Index(ranges: [], end: 0)

        private init(ranges: [Range<Int>], end: Int) {
            self.ranges = ranges
            self.end = end
        }

        /// The subroutine number bias for an INDEX of this size.
        var bias: Int { ranges.count < 1240 ? 107 : ranges.count < 33900 ? 1131 : 32768 }

        init?(_ bytes: [UInt8], at start: Int) {
            let reader = ByteReader(bytes: bytes)
            guard let count = reader.u16(start) else { return nil }
            if count == 0 {
                ranges = []
                end = start + 2
                return
            }
            guard let offsetSize = bytes[safe: start + 2].map(Int.init), (1...4).contains(offsetSize) else {
                return nil
            }
            let offsets = start + 3
            let data = offsets + (Int(count) + 1) * offsetSize - 1
            func offset(_ index: Int) -> Int? {
                var value = 0
                for byte in 0..<offsetSize {
                    guard let next = bytes[safe: offsets + index * offsetSize + byte] else { return nil }
                    value = value << 8 | Int(next)
                }
                return value
            }
            var ranges: [Range<Int>] = []
            ranges.reserveCapacity(Int(count))
            guard var previous = offset(0) else { return nil }
            for index in 1...Int(count) {
                guard let next = offset(index), next >= previous, data + next <= bytes.count else { return nil }
                ranges.append((data + previous)..<(data + next))
                previous = next
            }
            self.ranges = ranges
            end = data + previous
        }
    }

    /// Reads the `CFF ` table at `offset` of the font's bytes; `nil` for CID-keyed or damaged tables.
    init?(_ bytes: [UInt8], at offset: Int) {
        guard let headerSize = bytes[safe: offset + 2].map(Int.init),
            let names = Index(bytes, at: offset + headerSize),
            let topDicts = Index(bytes, at: names.end), let topDict = topDicts.ranges.first,
            let strings = Index(bytes, at: topDicts.end),
            let globals = Index(bytes, at: strings.end)
        else { return nil }
        let top = Self.dictionary(bytes, topDict)
        // CID-keyed fonts (ROS, 12 30) select a private DICT per glyph: not read here.
        guard top[1230] == nil, let charStringsOffset = top[17]?.first,
            let charStrings = Index(bytes, at: offset + Int(charStringsOffset))
        else { return nil }
        var locals: Index?
        if let privateEntry = top[18], privateEntry.count == 2 {
            let start = offset + Int(privateEntry[1])
            let privateDict = Self.dictionary(bytes, start..<min(bytes.count, start + Int(privateEntry[0])))
            if let subroutines = privateDict[19]?.first { locals = Index(bytes, at: start + Int(subroutines)) }
        }
        self.bytes = bytes
        self.charStrings = charStrings
        self.globalSubroutines = globals
        self.localSubroutines = locals ?? .empty
    }

    /// A DICT's operands by operator (escaped operators as 1200 + the second byte).
    private static func dictionary(_ bytes: [UInt8], _ range: Range<Int>) -> [Int: [Double]] {
        var entries: [Int: [Double]] = [:]
        var operands: [Double] = []
        var cursor = range.lowerBound
        let reader = ByteReader(bytes: bytes)
        while cursor < range.upperBound, let byte = bytes[safe: cursor] {
            switch byte {
            case 0...21:
                var key = Int(byte)
                if byte == 12 {
                    key = 1200 + Int(bytes[safe: cursor + 1] ?? 0)
                    cursor += 1
                }
                entries[key] = operands
                operands = []
                cursor += 1
            case 28:
                operands.append(Double(reader.i16(cursor + 1) ?? 0))
                cursor += 3
            case 29:
                operands.append(Double(Int32(bitPattern: reader.u32(cursor + 1) ?? 0)))
                cursor += 5
            case 30:
                // A real number in nibbles; its value is not needed here, only its length.
                cursor += 1
                while let nibbles = bytes[safe: cursor], nibbles & 0x0F != 0x0F, nibbles >> 4 != 0x0F { cursor += 1 }
                cursor += 1
                operands.append(0)
            case 32...246:
                operands.append(Double(Int(byte) - 139))
                cursor += 1
            case 247...250:
                operands.append(Double((Int(byte) - 247) * 256 + Int(bytes[safe: cursor + 1] ?? 0) + 108))
                cursor += 2
            case 251...254:
                operands.append(Double(-(Int(byte) - 251) * 256 - Int(bytes[safe: cursor + 1] ?? 0) - 108))
                cursor += 2
            default:
                cursor += 1
            }
        }
        return entries
    }

    /// A glyph's outline in design units, y up; empty for a glyph it cannot read.
    func outline(ofGlyph glyph: Int) -> Path {
        guard let range = charStrings.ranges[safe: glyph] else { return Path() }
        var machine = CharstringMachine(bytes: bytes, globals: globalSubroutines, locals: localSubroutines)
        machine.run(range, depth: 0)
        machine.closeContour()
        return machine.path
    }
}

/// The Type 2 charstring interpreter: an operand stack, the current point and the path drawn.
private struct CharstringMachine {
    let bytes: [UInt8]
    let globals: CFFOutlines.Index
    let locals: CFFOutlines.Index
    var stack: [Double] = []
    var x = 0.0, y = 0.0
    var stemCount = 0
    var sawWidth = false
    var isOpen = false
    var finished = false
    var path = Path()
    /// Operators run, to bound a hostile charstring's work.
    var budget = 100_000

    init(bytes: [UInt8], globals: CFFOutlines.Index, locals: CFFOutlines.Index) {
        self.bytes = bytes
        self.globals = globals
        self.locals = locals
    }

    mutating func closeContour() {
        if isOpen { path.close() }
        isOpen = false
    }

    private mutating func moveTo(_ dx: Double, _ dy: Double) {
        closeContour()
        x += dx
        y += dy
        path.move(to: Point(x, y))
        isOpen = true
    }

    private mutating func lineTo(_ dx: Double, _ dy: Double) {
        x += dx
        y += dy
        path.line(to: Point(x, y))
    }

    private mutating func curveTo(_ a: Double, _ b: Double, _ c: Double, _ d: Double, _ e: Double, _ f: Double) {
        let first = Point(x + a, y + b)
        let second = Point(first.x + c, first.y + d)
        x = second.x + e
        y = second.y + f
        path.cubic(first, second, to: Point(x, y))
    }

    /// Drops the advance width a glyph's first stack-clearing operator may carry before its arguments.
    private mutating func takeWidth(ifCountIsOdd: Bool, expected: Int = 0) {
        guard !sawWidth else { return }
        sawWidth = true
        let hasWidth = ifCountIsOdd ? stack.count % 2 == 1 : stack.count > expected
        if hasWidth, !stack.isEmpty { stack.removeFirst() }
    }

    mutating func run(_ range: Range<Int>, depth: Int) {
        guard depth < 11 else { return }
        var cursor = range.lowerBound
        let reader = ByteReader(bytes: bytes)
        while cursor < range.upperBound, !finished, budget > 0 {
            budget -= 1
            let byte = bytes[cursor]
            cursor += 1
            switch byte {
            case 32...246: stack.append(Double(Int(byte) - 139))
            case 247...250:
                stack.append(Double((Int(byte) - 247) * 256 + Int(bytes[safe: cursor] ?? 0) + 108))
                cursor += 1
            case 251...254:
                stack.append(Double(-(Int(byte) - 251) * 256 - Int(bytes[safe: cursor] ?? 0) - 108))
                cursor += 1
            case 28:
                stack.append(Double(reader.i16(cursor) ?? 0))
                cursor += 2
            case 255:
                stack.append(Double(Int32(bitPattern: reader.u32(cursor) ?? 0)) / 65536)
                cursor += 4
            case 10, 29:
                let subroutines = byte == 10 ? locals : globals
                guard let number = stack.popLast(),
                    let subroutine = subroutines.ranges[safe: Int(number) + subroutines.bias]
                else { return }
                run(subroutine, depth: depth + 1)
            case 11: return
            case 12:
                let escaped = bytes[safe: cursor] ?? 0
                cursor += 1
                flex(escaped)
            case 19, 20:
                takeWidth(ifCountIsOdd: true)
                stemCount += stack.count / 2
                stack.removeAll()
                cursor += (stemCount + 7) / 8
            default:
                pathOperator(byte)
            }
            if stack.count > 513 { return }
        }
    }

    private mutating func pathOperator(_ op: UInt8) {
        let s = stack
        switch op {
        case 1, 3, 18, 23:
            takeWidth(ifCountIsOdd: true)
            stemCount += stack.count / 2
        case 21:
            takeWidth(ifCountIsOdd: false, expected: 2)
            if stack.count >= 2 { moveTo(stack[stack.count - 2], stack[stack.count - 1]) }
        case 22:
            takeWidth(ifCountIsOdd: false, expected: 1)
            if let dx = stack.last { moveTo(dx, 0) }
        case 4:
            takeWidth(ifCountIsOdd: false, expected: 1)
            if let dy = stack.last { moveTo(0, dy) }
        case 5:
            for index in stride(from: 0, to: s.count - 1, by: 2) { lineTo(s[index], s[index + 1]) }
        case 6, 7:
            var horizontal = op == 6
            for value in s {
                if horizontal { lineTo(value, 0) } else { lineTo(0, value) }
                horizontal.toggle()
            }
        case 8:
            for index in stride(from: 0, to: s.count - 5, by: 6) {
                curveTo(s[index], s[index + 1], s[index + 2], s[index + 3], s[index + 4], s[index + 5])
            }
        case 24:
            var index = 0
            while index + 6 <= s.count - 2 {
                curveTo(s[index], s[index + 1], s[index + 2], s[index + 3], s[index + 4], s[index + 5])
                index += 6
            }
            if index + 2 <= s.count { lineTo(s[index], s[index + 1]) }
        case 25:
            var index = 0
            while index + 2 <= s.count - 6 {
                lineTo(s[index], s[index + 1])
                index += 2
            }
            if index + 6 <= s.count {
                curveTo(s[index], s[index + 1], s[index + 2], s[index + 3], s[index + 4], s[index + 5])
            }
        case 26, 27: straightCurves(op == 27, s)
        case 30, 31: alternatingCurves(startsHorizontal: op == 31, s)
        case 14:
            takeWidth(ifCountIsOdd: false, expected: 0)
            closeContour()
            finished = true
        default: break
        }
        stack.removeAll()
    }

    /// `hhcurveto` (27) and `vvcurveto` (26): curves that start and end along one axis.
    private mutating func straightCurves(_ horizontal: Bool, _ s: [Double]) {
        var index = 0
        var extra = 0.0
        if s.count % 4 == 1 {
            extra = s[0]
            index = 1
        }
        while index + 4 <= s.count {
            if horizontal {
                curveTo(s[index], extra, s[index + 1], s[index + 2], s[index + 3], 0)
            } else {
                curveTo(extra, s[index], s[index + 1], s[index + 2], 0, s[index + 3])
            }
            extra = 0
            index += 4
        }
    }

    /// `hvcurveto` (31) and `vhcurveto` (30): curves alternating between horizontal and vertical tangents.
    private mutating func alternatingCurves(startsHorizontal: Bool, _ s: [Double]) {
        var index = 0
        var horizontal = startsHorizontal
        while index + 4 <= s.count {
            let last = index + 5 == s.count ? s[index + 4] : 0
            if horizontal {
                curveTo(s[index], 0, s[index + 1], s[index + 2], last, s[index + 3])
            } else {
                curveTo(0, s[index], s[index + 1], s[index + 2], s[index + 3], last)
            }
            horizontal.toggle()
            index += 4
        }
    }

    /// The flex operators (12 34–37), drawn as their two curves; arithmetic operators are not supported.
    private mutating func flex(_ op: UInt8) {
        let s = stack
        switch op {
        case 35 where s.count >= 12:
            curveTo(s[0], s[1], s[2], s[3], s[4], s[5])
            curveTo(s[6], s[7], s[8], s[9], s[10], s[11])
        case 34 where s.count >= 7:
            curveTo(s[0], 0, s[1], s[2], s[3], 0)
            curveTo(s[4], 0, s[5], -s[2], s[6], 0)
        case 36 where s.count >= 9:
            curveTo(s[0], s[1], s[2], s[3], s[4], 0)
            curveTo(s[5], 0, s[6], s[7], s[8], -(s[1] + s[3] + s[7]))
        case 37 where s.count >= 11:
            let dx = s[0] + s[2] + s[4] + s[6] + s[8]
            let dy = s[1] + s[3] + s[5] + s[7] + s[9]
            curveTo(s[0], s[1], s[2], s[3], s[4], s[5])
            if abs(dx) > abs(dy) {
                curveTo(s[6], s[7], s[8], s[9], s[10], -dy)
            } else {
                curveTo(s[6], s[7], s[8], s[9], -dx, s[10])
            }
        default: break
        }
        stack.removeAll()
    }
}
