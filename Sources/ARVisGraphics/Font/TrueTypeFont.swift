import Foundation

/// A TrueType or OpenType font file: metrics, the character map and glyph outlines (`glyf`
/// quadratic outlines, or `CFF ` cubic ones).
public struct TrueTypeFont: Sendable {
    private let bytes: [UInt8]
    /// Design units per em.
    public let unitsPerEm: Double
    /// Typographic ascent, descent (negative) and line gap in design units (`hhea`).
    public let ascender: Double, descender: Double, lineGap: Double
    private let glyphCount: Int
    private let advances: [UInt16]
    private let asciiGlyphs: [UInt16]
    private let characterMap: CharacterMap
    private let locations: [Int]
    private let glyfOffset: Int
    /// The cubic outlines of an OpenType (`.otf`) font, which has no `glyf` table.
    private let cff: CFFOutlines?
    /// Kerning pairs from the `kern` table (format 0), keyed by left glyph << 16 | right glyph.
    private let kerning: [UInt32: Int16]
    /// Whether a glyph starts any kerning pair, so most pairs skip the lookup.
    private let kernsOnLeft: [Bool]
    /// The font that draws what this one lacks (a symbol or emoji font), if one was given.
    public private(set) var fallback: FallbackFont?

    /// A fallback font, boxed so a font can hold one.
    public final class FallbackFont: Sendable {
        /// The fallback's own font.
        public let font: TrueTypeFont
        init(_ font: TrueTypeFont) { self.font = font }
    }

    /// The colour emoji font that draws emoji in place of this font's glyphs, if one was given.
    public private(set) var colorEmoji: ColorEmojiBox?

    /// A colour emoji font, boxed so a font can hold one.
    public final class ColorEmojiBox: Sendable {
        /// The colour emoji font.
        public let font: ColorEmojiFont
        init(_ font: ColorEmojiFont) { self.font = font }
    }

    /// This font, with `font` drawing the scalars it has no glyph for and `colorEmoji` the emoji.
    public func withFallback(_ font: TrueTypeFont?, colorEmoji: ColorEmojiFont? = nil) -> TrueTypeFont {
        var copy = self
        copy.fallback = font.map(FallbackFont.init)
        copy.colorEmoji = colorEmoji.map(ColorEmojiBox.init)
        return copy
    }

    /// The colour emoji glyphs that draw `character`, when a colour emoji font is set and has them.
    public func emoji(for character: Character) -> ColorEmojiFont.Cluster? { colorEmoji?.font.cluster(character) }

    /// Whether `text` may hold an emoji the colour emoji font draws (every emoji has a scalar from U+203C up).
    public func mayHoldEmoji(_ text: some StringProtocol) -> Bool {
        colorEmoji != nil && text.unicodeScalars.contains { $0.value >= 0x203C }
    }

    /// The fallback font when it, and not this font, has a glyph for `scalar`.
    public func fallback(for scalar: Unicode.Scalar) -> TrueTypeFont? {
        guard glyph(for: scalar) == 0, let font = fallback?.font, font.glyph(for: scalar) != 0 else { return nil }
        return font
    }

    /// Reads a font from the bytes of a `.ttf` file; `nil` if they are not a TrueType font this reader handles.
    public init?(bytes: [UInt8]) {
        let reader = ByteReader(bytes: bytes)
        guard let tables = Self.tableDirectory(reader),
            let head = tables["head"], let hhea = tables["hhea"], let maxp = tables["maxp"],
            let hmtx = tables["hmtx"], let cmap = tables["cmap"],
            let unitsPerEm = reader.u16(head + 18), unitsPerEm > 0,
            let locFormat = reader.i16(head + 50),
            let ascender = reader.i16(hhea + 4), let descender = reader.i16(hhea + 6),
            let lineGap = reader.i16(hhea + 8),
            let metricCount = reader.u16(hhea + 34), metricCount > 0,
            let glyphCount = reader.u16(maxp + 4),
            let characterMap = CharacterMap(reader, tableOffset: cmap)
        else { return nil }
        var advances: [UInt16] = []
        advances.reserveCapacity(Int(metricCount))
        for index in 0..<Int(metricCount) {
            guard let advance = reader.u16(hmtx + 4 * index) else { return nil }
            advances.append(advance)
        }
        var locations: [Int] = []
        var cff: CFFOutlines?
        if let loca = tables["loca"], tables["glyf"] != nil {
            locations.reserveCapacity(Int(glyphCount) + 1)
            for index in 0...Int(glyphCount) {
                let location =
                    locFormat == 0
                    ? reader.u16(loca + 2 * index).map { Int($0) * 2 } : reader.u32(loca + 4 * index).map(Int.init)
                guard let location else { return nil }
                locations.append(location)
            }
        } else {
            guard let table = tables["CFF "], let outlines = CFFOutlines(bytes, at: table) else { return nil }
            cff = outlines
        }
        self.bytes = bytes
        self.unitsPerEm = Double(unitsPerEm)
        (self.ascender, self.descender, self.lineGap) = (Double(ascender), Double(descender), Double(lineGap))
        self.glyphCount = Int(glyphCount)
        self.advances = advances
        self.characterMap = characterMap
        self.locations = locations
        self.glyfOffset = tables["glyf"] ?? 0
        self.cff = cff
        self.asciiGlyphs = (0..<128).map { characterMap.glyph(for: UInt32($0)) }
        let kerning = tables["kern"].map { Self.kerningPairs(reader, at: $0) } ?? [:]
        var kernsOnLeft = [Bool](repeating: false, count: Int(glyphCount) + 1)
        for key in kerning.keys where Int(key >> 16) < kernsOnLeft.count { kernsOnLeft[Int(key >> 16)] = true }
        self.kerning = kerning
        self.kernsOnLeft = kernsOnLeft
    }

    /// The horizontal pairs of a version-0 `kern` table's format-0 subtables.
    private static func kerningPairs(_ reader: ByteReader, at offset: Int) -> [UInt32: Int16] {
        guard reader.u16(offset) == 0, let count = reader.u16(offset + 2) else { return [:] }
        var pairs: [UInt32: Int16] = [:]
        var subtable = offset + 4
        for _ in 0..<Int(count) {
            guard let length = reader.u16(subtable + 2), let coverage = reader.u16(subtable + 4), length >= 6 else {
                break
            }
            if coverage >> 8 == 0, coverage & 0x1 != 0, let pairCount = reader.u16(subtable + 6) {
                for index in 0..<Int(pairCount) {
                    let entry = subtable + 14 + 6 * index
                    guard let left = reader.u16(entry), let right = reader.u16(entry + 2),
                        let value = reader.i16(entry + 4)
                    else { break }
                    pairs[UInt32(left) << 16 | UInt32(right)] = value
                }
            }
            subtable += Int(length)
        }
        return pairs
    }

    /// The kerning adjustment between two glyphs in design units (negative brings them closer).
    public func kerning(between left: UInt16, and right: UInt16) -> Double {
        guard Int(left) < kernsOnLeft.count, kernsOnLeft[Int(left)],
            let value = kerning[UInt32(left) << 16 | UInt32(right)]
        else { return 0 }
        return Double(value)
    }

    static func tableDirectory(_ reader: ByteReader) -> [String: Int]? {
        guard let version = reader.u32(0), version == 0x0001_0000 || version == 0x7472_7565 || version == 0x4F54_544F,
            let count = reader.u16(4)
        else { return nil }
        var tables: [String: Int] = [:]
        for index in 0..<Int(count) {
            let record = 12 + 16 * index
            guard let offset = reader.u32(record + 8), let length = reader.u32(record + 12),
                Int(offset) + Int(length) <= reader.bytes.count
            else { return nil }
            let tag = String(decoding: reader.bytes[record..<record + 4], as: UTF8.self)
            tables[tag] = Int(offset)
        }
        return tables
    }

    /// The glyph for a Unicode scalar (0, the "missing" glyph, when the font has none).
    public func glyph(for scalar: Unicode.Scalar) -> UInt16 {
        scalar.value < 128 ? asciiGlyphs[Int(scalar.value)] : characterMap.glyph(for: scalar.value)
    }

    /// Whether the font, or its fallback, has a glyph for `scalar`.
    public func covers(_ scalar: Unicode.Scalar) -> Bool { glyph(for: scalar) != 0 || fallback(for: scalar) != nil }

    /// A glyph's advance width in design units.
    public func advance(ofGlyph glyph: UInt16) -> Double {
        Double(advances[min(Int(glyph), advances.count - 1)])
    }

    /// The width of `text` set at `size` points, in points, with kerning; emoji the colour emoji
    /// font draws take its advance.
    public func width(of text: some StringProtocol, size: Double) -> Double {
        guard mayHoldEmoji(text) else { return width(ofScalars: text.unicodeScalars, size: size) }
        return text.reduce(0) { sum, character in
            sum
                + (emoji(for: character).map { $0.advance * size }
                    ?? width(ofScalars: character.unicodeScalars, size: size))
        }
    }

    private func width(ofScalars scalars: some Sequence<Unicode.Scalar>, size: Double) -> Double {
        var units = 0.0
        var previous: UInt16?
        for scalar in scalars {
            if let other = fallback(for: scalar) {
                units += other.advance(ofGlyph: other.glyph(for: scalar)) * unitsPerEm / other.unitsPerEm
                previous = nil
                continue
            }
            let current = glyph(for: scalar)
            units += advance(ofGlyph: current)
            if let previous { units += kerning(between: previous, and: current) }
            previous = current
        }
        return units * size / unitsPerEm
    }

    /// A glyph's outline in design units, y pointing up, with composites resolved.
    public func outline(ofGlyph glyph: UInt16) -> Path {
        if let cff { return Int(glyph) < glyphCount ? cff.outline(ofGlyph: Int(glyph)) : Path() }
        var path = Path()
        appendOutline(of: Int(glyph), transform: .identity, depth: 0, to: &path)
        return path
    }

    private func appendOutline(of glyph: Int, transform: Transform, depth: Int, to path: inout Path) {
        guard glyph < glyphCount, depth < 8 else { return }
        let start = locations[glyph]
        let end = locations[glyph + 1]
        guard end > start else { return }
        let reader = ByteReader(bytes: bytes)
        let offset = glyfOffset + start
        guard let contourCount = reader.i16(offset) else { return }
        if contourCount >= 0 {
            GlyphOutline.appendSimple(reader, at: offset, contours: Int(contourCount), transform: transform, to: &path)
        } else {
            appendComposite(reader, at: offset + 10, transform: transform, depth: depth, to: &path)
        }
    }

    private func appendComposite(
        _ reader: ByteReader, at start: Int, transform: Transform, depth: Int, to path: inout Path
    ) {
        var cursor = start
        while let flags = reader.u16(cursor), let component = reader.u16(cursor + 2) {
            cursor += 4
            let wordArguments = flags & 0x0001 != 0
            var dx = 0.0
            var dy = 0.0
            if wordArguments {
                dx = Double(reader.i16(cursor) ?? 0)
                dy = Double(reader.i16(cursor + 2) ?? 0)
                cursor += 4
            } else {
                dx = Double(Int8(bitPattern: reader.bytes[safe: cursor] ?? 0))
                dy = Double(Int8(bitPattern: reader.bytes[safe: cursor + 1] ?? 0))
                cursor += 2
            }
            var a = 1.0
            var b = 0.0
            var c = 0.0
            var d = 1.0
            func f2dot14(_ at: Int) -> Double { Double(reader.i16(at) ?? 0) / 16384 }
            if flags & 0x0008 != 0 {
                a = f2dot14(cursor)
                d = a
                cursor += 2
            } else if flags & 0x0040 != 0 {
                a = f2dot14(cursor)
                d = f2dot14(cursor + 2)
                cursor += 4
            } else if flags & 0x0080 != 0 {
                a = f2dot14(cursor)
                b = f2dot14(cursor + 2)
                c = f2dot14(cursor + 4)
                d = f2dot14(cursor + 6)
                cursor += 8
            }
            // Point-matching arguments (ARGS_ARE_XY_VALUES clear) are rare; they are treated as no offset.
            if flags & 0x0002 == 0 {
                dx = 0
                dy = 0
            }
            let local = Transform(a: a, b: b, c: c, d: d, tx: dx, ty: dy)
            appendOutline(of: Int(component), transform: transform.concatenating(local), depth: depth + 1, to: &path)
            if flags & 0x0020 == 0 { break }
        }
    }
}

/// Decodes the points of a simple glyph into path segments.
private enum GlyphOutline {
    static func appendSimple(
        _ reader: ByteReader, at offset: Int, contours: Int, transform: Transform, to path: inout Path
    ) {
        guard contours > 0 else { return }
        var endPoints: [Int] = []
        for index in 0..<contours {
            guard let end = reader.u16(offset + 10 + 2 * index) else { return }
            endPoints.append(Int(end))
        }
        let pointCount = (endPoints.last ?? -1) + 1
        guard let instructionLength = reader.u16(offset + 10 + 2 * contours) else { return }
        var cursor = offset + 12 + 2 * contours + Int(instructionLength)
        var flags: [UInt8] = []
        flags.reserveCapacity(pointCount)
        while flags.count < pointCount {
            guard let flag = reader.bytes[safe: cursor] else { return }
            cursor += 1
            flags.append(flag)
            if flag & 0x08 != 0, let repeats = reader.bytes[safe: cursor] {
                cursor += 1
                for _ in 0..<Int(repeats) where flags.count < pointCount { flags.append(flag) }
            }
        }
        guard let xs = coordinates(reader, &cursor, flags, short: 0x02, same: 0x10),
            let ys = coordinates(reader, &cursor, flags, short: 0x04, same: 0x20)
        else { return }
        var first = 0
        for end in endPoints {
            guard end >= first, end < pointCount else { return }
            let points = (first...end).map {
                (transform.apply(Point(Double(xs[$0]), Double(ys[$0]))), flags[$0] & 1 != 0)
            }
            appendContour(points, to: &path)
            first = end + 1
        }
    }

    private static func coordinates(
        _ reader: ByteReader, _ cursor: inout Int, _ flags: [UInt8], short: UInt8, same: UInt8
    ) -> [Int]? {
        var values: [Int] = []
        values.reserveCapacity(flags.count)
        var value = 0
        for flag in flags {
            if flag & short != 0 {
                guard let delta = reader.bytes[safe: cursor] else { return nil }
                cursor += 1
                value += flag & same != 0 ? Int(delta) : -Int(delta)
            } else if flag & same == 0 {
                guard let delta = reader.i16(cursor) else { return nil }
                cursor += 2
                value += Int(delta)
            }
            values.append(value)
        }
        return values
    }

    /// Turns on- and off-curve points into quadratic segments, inserting the implied on-curve midpoints.
    private static func appendContour(_ points: [(Point, Bool)], to path: inout Path) {
        guard let firstOn = points.firstIndex(where: { $0.1 }) else {
            // All off-curve: start at the midpoint of the first two.
            guard points.count > 1 else { return }
            let start = midpoint(points[0].0, points[1].0)
            path.move(to: start)
            for index in 0..<points.count {
                let control = points[(index + 1) % points.count].0
                let next = midpoint(control, points[(index + 2) % points.count].0)
                path.quad(control: control, to: next)
            }
            path.close()
            return
        }
        let count = points.count
        path.move(to: points[firstOn].0)
        var pendingControl: Point?
        for step in 1...count {
            let (point, onCurve) = points[(firstOn + step) % count]
            if onCurve {
                if let control = pendingControl { path.quad(control: control, to: point) } else { path.line(to: point) }
                pendingControl = nil
            } else {
                if let control = pendingControl { path.quad(control: control, to: midpoint(control, point)) }
                pendingControl = point
            }
        }
        path.close()
    }

    private static func midpoint(_ a: Point, _ b: Point) -> Point { Point((a.x + b.x) / 2, (a.y + b.y) / 2) }
}

/// The `cmap` lookup: format 12 (full Unicode) or format 4 (Basic Multilingual Plane).
enum CharacterMap: Sendable {
    case segments(
        end: [UInt32], start: [UInt32], delta: [Int32], rangeOffsetAt: [Int], rangeOffset: [UInt16], bytes: [UInt8])
    case groups(start: [UInt32], end: [UInt32], glyph: [UInt32])

    init?(_ reader: ByteReader, tableOffset: Int) {
        guard let count = reader.u16(tableOffset + 2) else { return nil }
        var best: (rank: Int, offset: Int)?
        for index in 0..<Int(count) {
            let record = tableOffset + 4 + 8 * index
            guard let platform = reader.u16(record), let encoding = reader.u16(record + 2),
                let offset = reader.u32(record + 4), let format = reader.u16(tableOffset + Int(offset))
            else { continue }
            let rank: Int
            switch (platform, encoding, format) {
            case (3, 10, 12), (0, 4, 12), (0, 6, 12): rank = 3
            case (3, 1, 4), (0, 3, 4), (0, 1, 4), (0, 0, 4): rank = 2
            default: continue
            }
            if rank > (best?.rank ?? 0) { best = (rank, tableOffset + Int(offset)) }
        }
        guard let best else { return nil }
        if best.rank == 3 {
            self.init(format12: reader, at: best.offset)
        } else {
            self.init(format4: reader, at: best.offset)
        }
    }

    private init?(format12 reader: ByteReader, at offset: Int) {
        guard let count = reader.u32(offset + 12), count < 1_000_000 else { return nil }
        var start: [UInt32] = []
        var end: [UInt32] = []
        var glyph: [UInt32] = []
        for index in 0..<Int(count) {
            let group = offset + 16 + 12 * index
            guard let first = reader.u32(group), let last = reader.u32(group + 4), let glyphID = reader.u32(group + 8)
            else { return nil }
            start.append(first)
            end.append(last)
            glyph.append(glyphID)
        }
        self = .groups(start: start, end: end, glyph: glyph)
    }

    private init?(format4 reader: ByteReader, at offset: Int) {
        guard let doubled = reader.u16(offset + 6) else { return nil }
        let segments = Int(doubled) / 2
        let endAt = offset + 14
        let startAt = endAt + 2 * segments + 2
        let deltaAt = startAt + 2 * segments
        let rangeAt = deltaAt + 2 * segments
        var end: [UInt32] = []
        var start: [UInt32] = []
        var delta: [Int32] = []
        var rangeOffsetAt: [Int] = []
        var rangeOffset: [UInt16] = []
        for index in 0..<segments {
            guard let last = reader.u16(endAt + 2 * index), let first = reader.u16(startAt + 2 * index),
                let shift = reader.i16(deltaAt + 2 * index), let range = reader.u16(rangeAt + 2 * index)
            else { return nil }
            end.append(UInt32(last))
            start.append(UInt32(first))
            delta.append(Int32(shift))
            rangeOffsetAt.append(rangeAt + 2 * index)
            rangeOffset.append(range)
        }
        self = .segments(
            end: end, start: start, delta: delta, rangeOffsetAt: rangeOffsetAt, rangeOffset: rangeOffset,
            bytes: reader.bytes)
    }

    func glyph(for code: UInt32) -> UInt16 {
        switch self {
        case .groups(let start, let end, let glyph):
            guard let index = Self.search(end, code), code >= start[index] else { return 0 }
            return UInt16(truncatingIfNeeded: glyph[index] + (code - start[index]))
        case .segments(let end, let start, let delta, let rangeOffsetAt, let rangeOffset, let bytes):
            guard code <= 0xFFFF, let index = Self.search(end, code), code >= start[index] else { return 0 }
            if rangeOffset[index] == 0 { return UInt16(truncatingIfNeeded: Int32(code) + delta[index]) }
            let at = rangeOffsetAt[index] + Int(rangeOffset[index]) + 2 * Int(code - start[index])
            guard let raw = ByteReader(bytes: bytes).u16(at), raw != 0 else { return 0 }
            return UInt16(truncatingIfNeeded: Int32(raw) + delta[index])
        }
    }

    /// The first index whose end is at least `code`.
    private static func search(_ ends: [UInt32], _ code: UInt32) -> Int? {
        var low = 0
        var high = ends.count
        while low < high {
            let middle = (low + high) / 2
            if ends[middle] < code { low = middle + 1 } else { high = middle }
        }
        return low < ends.count ? low : nil
    }
}

/// Big-endian reads that return `nil` past the end instead of trapping.
struct ByteReader {
    let bytes: [UInt8]

    func u16(_ at: Int) -> UInt16? {
        guard at >= 0, at + 2 <= bytes.count else { return nil }
        return UInt16(bytes[at]) << 8 | UInt16(bytes[at + 1])
    }

    func i16(_ at: Int) -> Int16? { u16(at).map { Int16(bitPattern: $0) } }

    func u32(_ at: Int) -> UInt32? {
        guard at >= 0, at + 4 <= bytes.count else { return nil }
        return UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8
            | UInt32(bytes[at + 3])
    }
}

extension Array {
    /// The element at `index`, or `nil` when the index is out of range (ARVisModel reads files with it too).
    package subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
