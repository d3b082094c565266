import Foundation

/// A colour bitmap emoji font (`CBDT`/`CBLC`, as Debian's `fonts-noto-color-emoji`): its character
/// map, its `ccmp` ligatures (skin-tone modifiers, ZWJ sequences, keycaps, flags) and one PNG per
/// glyph at its largest strike.
///
/// ```swift
/// if let emoji = ColorEmojiFont(bytes: bytes), let cluster = emoji.cluster("👉🏻") {
///     let png = emoji.bitmap(ofGlyph: cluster.glyphs[0])
/// }
/// ```
public struct ColorEmojiFont: Sendable {
    private let bytes: [UInt8]
    /// Design units per em.
    public let unitsPerEm: Double
    private let advances: [UInt16]
    private let characterMap: CharacterMap
    /// Ligatures by their first glyph: the rest of the components and the glyph they become, longest first.
    private let ligatures: [UInt16: [(rest: [UInt16], glyph: UInt16)]]
    /// Where each glyph's bitmap record starts in the file, and its format, for the chosen strike.
    private let records: [UInt16: (offset: Int, length: Int, format: UInt16)]
    /// The chosen strike's pixels per em.
    public let pixelsPerEm: Double

    /// One emoji as glyphs: usually one (a ligature), more when the font has no glyph for the whole sequence.
    public struct Cluster: Sendable {
        /// The glyphs, in order.
        public let glyphs: [UInt16]
        /// The advance of all of them, in ems.
        public let advance: Double
    }

    /// A glyph's picture: PNG bytes and where they sit, in the strike's pixels.
    public struct Bitmap: Sendable {
        /// The PNG file.
        public let png: [UInt8]
        /// The left edge's distance right of the pen, and the top edge's above the baseline.
        public let bearingX: Double, bearingY: Double
    }

    /// Reads a font; `nil` if the bytes are not a colour bitmap font this reader handles.
    public init?(bytes: [UInt8]) {
        let reader = ByteReader(bytes: bytes)
        guard let tables = TrueTypeFont.tableDirectory(reader), let head = tables["head"], let hhea = tables["hhea"],
            let hmtx = tables["hmtx"], let cmap = tables["cmap"], let cblc = tables["CBLC"], let cbdt = tables["CBDT"],
            let unitsPerEm = reader.u16(head + 18), unitsPerEm > 0,
            let metricCount = reader.u16(hhea + 34), metricCount > 0,
            let characterMap = CharacterMap(reader, tableOffset: cmap),
            let (records, pixelsPerEm) = Self.bitmapRecords(reader, cblc: cblc, cbdt: cbdt)
        else { return nil }
        self.bytes = bytes
        self.unitsPerEm = Double(unitsPerEm)
        self.advances = (0..<Int(metricCount)).map { reader.u16(hmtx + 4 * $0) ?? 0 }
        self.characterMap = characterMap
        self.records = records
        self.pixelsPerEm = pixelsPerEm
        self.ligatures = tables["GSUB"].map { Self.ligatures(reader, gsub: $0) } ?? [:]
    }

    /// Whether a character is shown as an emoji picture rather than as text: an emoji-presentation
    /// character, or one made an emoji by U+FE0F, a keycap, a skin tone, a joiner or a flag's letters.
    public static func isEmojiPresentation(_ character: Character) -> Bool {
        let scalars = character.unicodeScalars
        guard let first = scalars.first, first.value >= 0x23 else { return false }
        if first.properties.isEmojiPresentation || (0x1F1E6...0x1F1FF).contains(first.value) { return true }
        return scalars.count > 1
            && scalars.contains {
                $0.value == 0xFE0F || $0.value == 0x20E3 || $0.value == 0x200D || (0x1F3FB...0x1F3FF).contains($0.value)
            }
    }

    /// The glyphs that draw `character`, or `nil` when it is not an emoji or the font lacks one of its parts.
    public func cluster(_ character: Character) -> Cluster? {
        guard Self.isEmojiPresentation(character) else { return nil }
        var glyphs: [UInt16] = []
        for scalar in character.unicodeScalars where scalar.value != 0xFE0F && scalar.value != 0xFE0E {
            let glyph = characterMap.glyph(for: scalar.value)
            guard glyph != 0 else { return nil }
            glyphs.append(glyph)
        }
        glyphs = substituted(glyphs)
        guard !glyphs.isEmpty else { return nil }
        let width = glyphs.reduce(0.0) { $0 + advance(ofGlyph: $1) }
        return Cluster(glyphs: glyphs, advance: width)
    }

    /// A glyph's advance, in ems.
    public func advance(ofGlyph glyph: UInt16) -> Double {
        Double(advances[min(Int(glyph), advances.count - 1)]) / unitsPerEm
    }

    /// The glyphs with every ligature applied, longest match first, left to right.
    private func substituted(_ glyphs: [UInt16]) -> [UInt16] {
        var result: [UInt16] = []
        var index = 0
        while index < glyphs.count {
            let match = ligatures[glyphs[index]]?.first { candidate in
                index + candidate.rest.count < glyphs.count
                    && glyphs[(index + 1)...(index + candidate.rest.count)].elementsEqual(candidate.rest)
            }
            if let match {
                result.append(match.glyph)
                index += 1 + match.rest.count
            } else {
                result.append(glyphs[index])
                index += 1
            }
        }
        return result
    }

    /// A glyph's PNG and placement, or `nil` when it has none (a joiner, a blank).
    public func bitmap(ofGlyph glyph: UInt16) -> Bitmap? {
        guard let record = records[glyph] else { return nil }
        let reader = ByteReader(bytes: bytes)
        let start = record.offset
        // Format 17: small metrics (5 bytes); 18: big metrics (8 bytes); then the PNG's length and bytes.
        let metricsLength = record.format == 17 ? 5 : 8
        guard record.length > metricsLength + 4, start + record.length <= bytes.count,
            let length = reader.u32(start + metricsLength).map(Int.init),
            length > 0, start + metricsLength + 4 + length <= bytes.count
        else { return nil }
        let bearingX = Double(Int8(bitPattern: bytes[start + 2]))
        let bearingY = Double(Int8(bitPattern: bytes[start + 3]))
        let data = Array(bytes[(start + metricsLength + 4)..<(start + metricsLength + 4 + length)])
        return Bitmap(png: data, bearingX: bearingX, bearingY: bearingY)
    }

    // MARK: Tables

    /// Each glyph's bitmap record in the largest strike, read from the `CBLC` index (formats 1 and 3).
    private static func bitmapRecords(_ reader: ByteReader, cblc: Int, cbdt: Int) -> (
        [UInt16: (offset: Int, length: Int, format: UInt16)], Double
    )? {
        guard let sizeCount = reader.u32(cblc + 4), sizeCount > 0, sizeCount < 256 else { return nil }
        var best: (record: Int, ppem: UInt8)?
        for index in 0..<Int(sizeCount) {
            let record = cblc + 8 + 48 * index
            guard record + 48 <= reader.bytes.count else { return nil }
            let ppem = reader.bytes[record + 44]
            if ppem > (best?.ppem ?? 0) { best = (record, ppem) }
        }
        guard let best, let arrayOffset = reader.u32(best.record), let tableCount = reader.u32(best.record + 8),
            tableCount < 65_536
        else { return nil }
        var records: [UInt16: (offset: Int, length: Int, format: UInt16)] = [:]
        let array = cblc + Int(arrayOffset)
        for index in 0..<Int(tableCount) {
            let entry = array + 8 * index
            guard let first = reader.u16(entry), let last = reader.u16(entry + 2), last >= first,
                let extra = reader.u32(entry + 4)
            else { return nil }
            let subtable = array + Int(extra)
            guard let indexFormat = reader.u16(subtable), let imageFormat = reader.u16(subtable + 2),
                let dataOffset = reader.u32(subtable + 4), imageFormat == 17 || imageFormat == 18,
                indexFormat == 1 || indexFormat == 3
            else { continue }
            let width = indexFormat == 1 ? 4 : 2
            func offset(_ slot: Int) -> Int? {
                let at = subtable + 8 + width * slot
                return (width == 4 ? reader.u32(at).map(Int.init) : reader.u16(at).map(Int.init))
            }
            for glyph in first...last {
                let slot = Int(glyph - first)
                guard let start = offset(slot), let end = offset(slot + 1) else { return nil }
                if end > start {
                    records[glyph] = (cbdt + Int(dataOffset) + start, end - start, imageFormat)
                }
            }
        }
        return records.isEmpty ? nil : (records, Double(best.ppem))
    }

    /// The ligatures of the type-4 lookups the `ccmp` feature uses (through extension lookups too).
    private static func ligatures(_ reader: ByteReader, gsub: Int) -> [UInt16: [(rest: [UInt16], glyph: UInt16)]] {
        guard let featureList = reader.u16(gsub + 6), let lookupList = reader.u16(gsub + 8),
            let featureCount = reader.u16(gsub + Int(featureList)),
            let lookupCount = reader.u16(gsub + Int(lookupList))
        else { return [:] }
        var lookups: [Int] = []
        for index in 0..<Int(featureCount) {
            let record = gsub + Int(featureList) + 2 + 6 * index
            guard record + 6 <= reader.bytes.count, reader.bytes[record..<record + 4].elementsEqual("ccmp".utf8),
                let offset = reader.u16(record + 4)
            else { continue }
            let feature = gsub + Int(featureList) + Int(offset)
            let count = Int(reader.u16(feature + 2) ?? 0)
            lookups += (0..<count).compactMap { reader.u16(feature + 4 + 2 * $0).map(Int.init) }
        }
        var result: [UInt16: [(rest: [UInt16], glyph: UInt16)]] = [:]
        for lookupIndex in lookups where lookupIndex < Int(lookupCount) {
            guard let offset = reader.u16(gsub + Int(lookupList) + 2 + 2 * lookupIndex) else { continue }
            let lookup = gsub + Int(lookupList) + Int(offset)
            guard let type = reader.u16(lookup), let subtableCount = reader.u16(lookup + 4) else { continue }
            for index in 0..<Int(subtableCount) {
                guard var subtable = reader.u16(lookup + 6 + 2 * index).map({ lookup + Int($0) }) else { continue }
                var subtableType = type
                if type == 7, let extensionType = reader.u16(subtable + 2), let extra = reader.u32(subtable + 4) {
                    subtableType = extensionType
                    subtable += Int(extra)
                }
                if subtableType == 4 { readLigatureSubtable(reader, at: subtable, into: &result) }
            }
        }
        for key in result.keys { result[key]?.sort { $0.rest.count > $1.rest.count } }
        return result
    }

    /// A ligature substitution subtable (format 1): coverage, then one set of ligatures per covered glyph.
    private static func readLigatureSubtable(
        _ reader: ByteReader, at subtable: Int, into result: inout [UInt16: [(rest: [UInt16], glyph: UInt16)]]
    ) {
        guard reader.u16(subtable) == 1, let coverage = reader.u16(subtable + 2),
            let setCount = reader.u16(subtable + 4)
        else { return }
        let covered = coveredGlyphs(reader, at: subtable + Int(coverage))
        for (index, first) in covered.enumerated() where index < Int(setCount) {
            guard let setOffset = reader.u16(subtable + 6 + 2 * index) else { continue }
            let set = subtable + Int(setOffset)
            for ligatureIndex in 0..<Int(reader.u16(set) ?? 0) {
                guard let ligatureOffset = reader.u16(set + 2 + 2 * ligatureIndex) else { continue }
                let ligature = set + Int(ligatureOffset)
                guard let glyph = reader.u16(ligature), let count = reader.u16(ligature + 2), count >= 1 else {
                    continue
                }
                let rest = (0..<Int(count) - 1).compactMap { reader.u16(ligature + 4 + 2 * $0) }
                guard rest.count == Int(count) - 1 else { continue }
                result[first, default: []].append((rest, glyph))
            }
        }
    }

    /// The glyphs a coverage table lists, in coverage-index order (formats 1 and 2).
    private static func coveredGlyphs(_ reader: ByteReader, at offset: Int) -> [UInt16] {
        guard let format = reader.u16(offset), let count = reader.u16(offset + 2) else { return [] }
        if format == 1 { return (0..<Int(count)).compactMap { reader.u16(offset + 4 + 2 * $0) } }
        guard format == 2 else { return [] }
        var glyphs: [UInt16] = []
        for index in 0..<Int(count) {
            let range = offset + 4 + 6 * index
            guard let start = reader.u16(range), let end = reader.u16(range + 2), end >= start else { break }
            glyphs += Array(start...end)
        }
        return glyphs
    }
}
