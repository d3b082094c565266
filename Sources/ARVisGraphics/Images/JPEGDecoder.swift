import ARVisSupport
import Foundation

/// Reads a JPEG file (ITU T.81): baseline, extended and progressive Huffman-coded frames of 1, 3 or
/// 4 components at any sampling, with restart intervals, into 8-bit RGBA turned upright by its Exif
/// orientation.
///
/// Coefficients are decoded for the whole frame first (progressive scans refine them in place),
/// then each block is dequantised, inverse-transformed and colour-converted.
struct JPEGDecoder {
    private let bytes: [UInt8]
    private let maximumPixels: Int

    init(_ bytes: [UInt8], maximumPixels: Int) {
        self.bytes = bytes
        self.maximumPixels = maximumPixels
    }

    /// What the markers before and between the scans set.
    private struct State {
        var frame: JPEGFrame?
        var quantization = [[Int]](repeating: [], count: 4)
        var dcTables = [JPEGHuffman?](repeating: nil, count: 4)
        var acTables = [JPEGHuffman?](repeating: nil, count: 4)
        var restartInterval = 0
        var adobeTransform: Int?
        /// The first Exif orientation before the first scan, as libjpeg-based readers (Chromium,
        /// Pillow) take it.
        var orientation: Int?
    }

    func decode() throws(GraphicsError) -> RasterImage {
        var state = State()
        var position = 2
        while true {
            guard let (marker, start) = nextMarker(from: position) else {
                if state.frame?.scansDecoded ?? 0 > 0 { break }  // a truncated file shows what arrived
                throw invalid("it ends before its first scan")
            }
            if marker == 0xD9 { break }
            if Self.standsAlone(marker) {
                position = start
                continue
            }
            guard start + 2 <= bytes.count else { throw invalid("a marker segment is truncated") }
            let length = Int(bytes[start]) << 8 | Int(bytes[start + 1])
            guard length >= 2, start + length <= bytes.count else {
                throw invalid("marker 0x\(hex(marker)) has a damaged length")
            }
            let segment = bytes[start + 2..<start + length]
            position = start + length
            switch marker {
            case 0xC0, 0xC1, 0xC2:
                guard state.frame == nil else { throw invalid("it has more than one frame") }
                state.frame = try readFrame(segment, progressive: marker == 0xC2)
            case 0xC3, 0xC5...0xC7, 0xC9...0xCB, 0xCD...0xCF:
                throw GraphicsError(
                    .imageUnsupported,
                    "the JPEG picture is lossless, hierarchical or arithmetic-coded (marker 0x\(hex(marker))), which cannot be drawn into PNG output"
                )
            case 0xC4: try readHuffmanTables(segment, into: &state)
            case 0xDB: try readQuantization(segment, into: &state)
            case 0xDD:
                guard segment.count >= 2 else { throw invalid("its restart interval is truncated") }
                state.restartInterval = Int(segment[segment.startIndex]) << 8 | Int(segment[segment.startIndex + 1])
            case 0xE1 where state.orientation == nil && (state.frame?.scansDecoded ?? 0) == 0:
                state.orientation = Self.exifOrientation(segment)
            case 0xEE:
                if segment.count >= 12, segment.starts(with: Array("Adobe".utf8)) {
                    state.adobeTransform = Int(segment[segment.startIndex + 11])
                }
            case 0xDA:
                guard var frame = state.frame else { throw invalid("a scan comes before the frame header") }
                var scan = try readScanHeader(segment, frame: frame, state: state)
                position = scan.decode(bytes, from: position, into: &frame, restartInterval: state.restartInterval)
                frame.scansDecoded += 1
                state.frame = frame
            default: break
            }
        }
        guard let frame = state.frame else { throw invalid("it has no frame header") }
        let image = try frame.pixels(
            quantization: state.quantization, adobeTransform: state.adobeTransform, invalid: invalid)
        return image.oriented(state.orientation ?? 1)
    }

    /// The picture's upright size from its frame header and Exif orientation, without decoding it:
    /// the markers are walked as the decoder walks them, up to the first scan (an Exif segment may
    /// follow the frame header), or as far as the bytes go.
    func displaySize() -> (width: Int, height: Int)? {
        var position = 2
        var orientation: Int?
        var size: (width: Int, height: Int)?
        while let (marker, start) = nextMarker(from: position), start + 2 <= bytes.count, marker != 0xD9, marker != 0xDA
        {
            if Self.standsAlone(marker) {
                position = start
                continue
            }
            let length = Int(bytes[start]) << 8 | Int(bytes[start + 1])
            guard length >= 2, start + length <= bytes.count else { break }
            if marker == 0xE1, orientation == nil {
                orientation = Self.exifOrientation(bytes[start + 2..<start + length])
            }
            if size == nil, (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker), length >= 7 {
                size = (
                    Int(bytes[start + 5]) << 8 | Int(bytes[start + 6]),
                    Int(bytes[start + 3]) << 8 | Int(bytes[start + 4])
                )
            }
            position = start + length
        }
        guard let size else { return nil }
        return (orientation ?? 1) >= 5 ? (size.height, size.width) : size
    }

    /// Whether `marker` has no length and no segment: a restart marker (RST0–7) or TEM.
    private static func standsAlone(_ marker: UInt8) -> Bool {
        (0xD0...0xD7).contains(marker) || marker == 0x01
    }

    /// The marker at or after `position` (skipping fill bytes and anything that is not a marker) and
    /// the index just after it.
    private func nextMarker(from position: Int) -> (UInt8, Int)? {
        var index = position
        while index + 1 < bytes.count {
            if bytes[index] == 0xFF, bytes[index + 1] != 0, bytes[index + 1] != 0xFF {
                return (bytes[index + 1], index + 2)
            }
            index += 1
        }
        return nil
    }

    private func readFrame(_ segment: ArraySlice<UInt8>, progressive: Bool) throws(GraphicsError) -> JPEGFrame {
        let at = segment.startIndex
        guard segment.count >= 6 else { throw invalid("its frame header is truncated") }
        guard segment[at] == 8 else {
            throw GraphicsError(
                .imageUnsupported, "the JPEG picture has \(segment[at])-bit samples; only 8-bit ones can be drawn")
        }
        let height = Int(segment[at + 1]) << 8 | Int(segment[at + 2])
        let width = Int(segment[at + 3]) << 8 | Int(segment[at + 4])
        let count = Int(segment[at + 5])
        guard height > 0 else {
            throw GraphicsError(
                .imageUnsupported, "the JPEG picture declares its height later (DNL), which is not supported")
        }
        try RasterImage.checkSize(width: width, height: height, maximumPixels: maximumPixels, format: "JPEG")
        guard [1, 3, 4].contains(count), segment.count >= 6 + 3 * count else {
            throw invalid("its frame has \(count) components")
        }
        var components: [JPEGComponent] = []
        for index in 0..<count {
            let base = at + 6 + 3 * index
            let horizontal = Int(segment[base + 1] >> 4)
            let vertical = Int(segment[base + 1] & 15)
            guard (1...4).contains(horizontal), (1...4).contains(vertical), segment[base + 2] < 4 else {
                throw invalid(
                    "component \(index + 1) has sampling \(horizontal)×\(vertical) or table \(segment[base + 2])")
            }
            components.append(
                JPEGComponent(
                    id: segment[base], horizontal: horizontal, vertical: vertical, table: Int(segment[base + 2])))
        }
        return JPEGFrame(width: width, height: height, progressive: progressive, components: components)
    }

    private func readHuffmanTables(_ segment: ArraySlice<UInt8>, into state: inout State) throws(GraphicsError) {
        var index = segment.startIndex
        while index < segment.endIndex {
            guard index + 17 <= segment.endIndex else { throw invalid("a Huffman table is truncated") }
            let kind = segment[index] >> 4
            let slot = Int(segment[index] & 15)
            guard kind <= 1, slot < 4 else { throw invalid("a Huffman table has class \(kind) and slot \(slot)") }
            let counts = (1...16).map { Int(segment[index + $0]) }
            let total = counts.reduce(0, +)
            guard index + 17 + total <= segment.endIndex else { throw invalid("a Huffman table is truncated") }
            guard let table = JPEGHuffman(counts: counts, symbols: Array(segment[index + 17..<index + 17 + total]))
            else {
                throw invalid("a Huffman table has more codes than its lengths allow")
            }
            if kind == 0 { state.dcTables[slot] = table } else { state.acTables[slot] = table }
            index += 17 + total
        }
    }

    private func readQuantization(_ segment: ArraySlice<UInt8>, into state: inout State) throws(GraphicsError) {
        var index = segment.startIndex
        while index < segment.endIndex {
            let wide = segment[index] >> 4 == 1
            let slot = Int(segment[index] & 15)
            let size = wide ? 128 : 64
            guard slot < 4, index + 1 + size <= segment.endIndex else {
                throw invalid("a quantisation table is truncated")
            }
            var table = [Int](repeating: 0, count: 64)
            for k in 0..<64 {
                let value =
                    wide
                    ? Int(segment[index + 1 + 2 * k]) << 8 | Int(segment[index + 2 + 2 * k])
                    : Int(segment[index + 1 + k])
                table[JPEGFrame.zigzag[k]] = value
            }
            state.quantization[slot] = table
            index += 1 + size
        }
    }

    private func readScanHeader(_ segment: ArraySlice<UInt8>, frame: JPEGFrame, state: State) throws(GraphicsError)
        -> JPEGScan
    {
        let at = segment.startIndex
        guard let count = segment.first.map(Int.init), (1...4).contains(count), segment.count >= 4 + 2 * count else {
            throw invalid("a scan header is truncated")
        }
        var members: [JPEGScan.Member] = []
        for index in 0..<count {
            let id = segment[at + 1 + 2 * index]
            let tables = segment[at + 2 + 2 * index]
            guard let component = frame.components.firstIndex(where: { $0.id == id }) else {
                throw invalid("a scan names the unknown component \(id)")
            }
            members.append(
                JPEGScan.Member(
                    component: component, dc: state.dcTables[Int(tables >> 4) & 3],
                    ac: state.acTables[Int(tables & 15) & 3]))
        }
        let spectral = at + 1 + 2 * count
        let start = Int(segment[spectral])
        let end = Int(segment[spectral + 1])
        let high = Int(segment[spectral + 2] >> 4)
        let low = Int(segment[spectral + 2] & 15)
        let scan = JPEGScan(
            members: members, spectralStart: frame.progressive ? start : 0, spectralEnd: frame.progressive ? end : 63,
            successiveHigh: frame.progressive ? high : 0, successiveLow: frame.progressive ? low : 0)
        guard scan.spectralStart <= scan.spectralEnd, scan.spectralEnd <= 63, scan.successiveLow <= 13,
            scan.spectralStart == 0 || count == 1
        else { throw invalid("a scan has spectral range \(start)…\(end)") }
        for member in members {
            guard scan.spectralStart > 0 || member.dc != nil || scan.successiveHigh > 0 else {
                throw invalid("a scan uses an undefined DC Huffman table")
            }
            guard scan.spectralEnd == 0 || member.ac != nil else {
                throw invalid("a scan uses an undefined AC Huffman table")
            }
        }
        return scan
    }

    /// The orientation (1–8) in an APP1 Exif segment's first directory: a tag of one SHORT, as
    /// Chromium reads it (Pillow skips one whose count is not 1 too).
    static func exifOrientation(_ segment: ArraySlice<UInt8>) -> Int? {
        let tiff = segment.startIndex + 6
        guard segment.count >= 14, segment.starts(with: Array("Exif".utf8) + [0, 0]) else { return nil }
        let order = Array(segment[tiff..<tiff + 4])
        guard order == [0x49, 0x49, 42, 0] || order == [0x4D, 0x4D, 0, 42] else { return nil }
        let little = order[0] == 0x49
        func read(_ at: Int, _ size: Int) -> Int? {
            guard at >= tiff, at + size <= segment.endIndex else { return nil }
            return (0..<size).reduce(0) { value, index in
                value | Int(segment[at + (little ? index : size - 1 - index)]) << (8 * index)
            }
        }
        guard let directory = read(tiff + 4, 4), let entries = read(tiff + directory, 2) else { return nil }
        for entry in 0..<min(entries, 512) {
            let base = tiff + directory + 2 + 12 * entry
            guard let tag = read(base, 2) else { return nil }
            guard tag == 0x0112 else { continue }
            guard read(base + 2, 2) == 3, read(base + 4, 4) == 1, let value = read(base + 8, 2) else { return nil }
            return (1...8).contains(value) ? value : nil
        }
        return nil
    }

    private func hex(_ marker: UInt8) -> String { String(marker, radix: 16, uppercase: true) }

    private func invalid(_ reason: String) -> GraphicsError {
        GraphicsError(.imageInvalid, "the JPEG picture is damaged: \(reason)")
    }
}

/// One colour component of a frame and its coefficients, block by block in natural order.
struct JPEGComponent {
    let id: UInt8
    let horizontal: Int, vertical: Int
    let table: Int
    /// Blocks the picture covers, and blocks stored (whole MCUs).
    var blocksPerLine = 0, blocksPerColumn = 0, storedPerLine = 0, storedPerColumn = 0
    var coefficients: [Int16] = []
    var prediction = 0

    init(id: UInt8, horizontal: Int, vertical: Int, table: Int) {
        self.id = id
        self.horizontal = horizontal
        self.vertical = vertical
        self.table = table
    }
}

/// The frame: its size, sampling and components.
struct JPEGFrame {
    let width: Int, height: Int
    let progressive: Bool
    var components: [JPEGComponent]
    let maxHorizontal: Int, maxVertical: Int
    let mcusPerLine: Int, mcusPerColumn: Int
    var scansDecoded = 0

    /// Zig-zag position → natural position.
    static let zigzag = [
        0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14,
        21,
        28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61,
        54, 47, 55, 62, 63,
    ]

    init(width: Int, height: Int, progressive: Bool, components: [JPEGComponent]) {
        self.width = width
        self.height = height
        self.progressive = progressive
        let maxHorizontal = components.map(\.horizontal).max() ?? 1
        let maxVertical = components.map(\.vertical).max() ?? 1
        let mcusPerLine = (width + 8 * maxHorizontal - 1) / (8 * maxHorizontal)
        let mcusPerColumn = (height + 8 * maxVertical - 1) / (8 * maxVertical)
        self.maxHorizontal = maxHorizontal
        self.maxVertical = maxVertical
        self.mcusPerLine = mcusPerLine
        self.mcusPerColumn = mcusPerColumn
        self.components = components.map { component in
            var component = component
            let samplesPerLine = (width * component.horizontal + maxHorizontal - 1) / maxHorizontal
            let samplesPerColumn = (height * component.vertical + maxVertical - 1) / maxVertical
            component.blocksPerLine = (samplesPerLine + 7) / 8
            component.blocksPerColumn = (samplesPerColumn + 7) / 8
            component.storedPerLine = mcusPerLine * component.horizontal
            component.storedPerColumn = mcusPerColumn * component.vertical
            component.coefficients = [Int16](
                repeating: 0, count: component.storedPerLine * component.storedPerColumn * 64)
            return component
        }
    }

    /// Dequantises and inverse-transforms every block, then converts the colours to RGBA.
    func pixels(quantization: [[Int]], adobeTransform: Int?, invalid: (String) -> GraphicsError) throws(GraphicsError)
        -> RasterImage
    {
        var planes: [[UInt8]] = []
        for component in components {
            let table = quantization[component.table]
            guard table.count == 64 else { throw invalid("a component uses an undefined quantisation table") }
            planes.append(Self.plane(component, table))
        }
        var output = [UInt8](repeating: 255, count: width * height * 4)
        let transform = adobeTransform ?? (components.count == 3 && components.map(\.id) == Array("RGB".utf8) ? 0 : 1)
        let columnTaps = components.map {
            Self.taps(count: width, factor: maxHorizontal / $0.horizontal, limit: $0.blocksPerLine * 8)
        }
        let rowTaps = components.map {
            Self.taps(count: height, factor: maxVertical / $0.vertical, limit: $0.blocksPerColumn * 8)
        }
        var rows = [[UInt8]](repeating: [UInt8](repeating: 0, count: width), count: 4)
        for y in 0..<height {
            for index in components.indices {
                Self.upsample(
                    planes[index], stride: components[index].storedPerLine * 8, row: rowTaps[index][y],
                    columns: columnTaps[index], into: &rows[index])
            }
            for x in 0..<width {
                let rgb = Self.color(
                    (Int(rows[0][x]), Int(rows[1][x]), Int(rows[2][x]), Int(rows[3][x])), count: components.count,
                    transform: transform, inverted: adobeTransform != nil)
                let target = (y * width + x) * 4
                output[target] = rgb.0
                output[target + 1] = rgb.1
                output[target + 2] = rgb.2
            }
        }
        return RasterImage(width: width, height: height, pixels: output)
    }

    /// Where an upsampled position reads from: the nearer and the farther stored sample, weighted
    /// 3 : 1 as libjpeg's "fancy" upsampling does (the same sample twice where no blending is needed).
    private struct Tap {
        let near: Int, far: Int
    }

    /// The taps of `count` output positions over samples subsampled by `factor` (1–4), within `limit` stored samples.
    private static func taps(count: Int, factor: Int, limit: Int) -> [Tap] {
        (0..<count).map { position in
            let near = min(position / factor, limit - 1)
            let offset = 2 * (position % factor) + 1 - factor  // twice the distance from the sample's centre
            let far = offset < 0 ? max(0, near - 1) : offset > 0 ? min(limit - 1, near + 1) : near
            return Tap(near: near, far: far)
        }
    }

    /// One output row of a component: its samples blended 3 : 1 across and down.
    private static func upsample(_ plane: [UInt8], stride: Int, row: Tap, columns: [Tap], into output: inout [UInt8]) {
        plane.withUnsafeBufferPointer { plane in
            guard let start = plane.baseAddress else { return }
            let near = start + row.near * stride
            let far = start + row.far * stride
            for (x, column) in columns.enumerated() {
                let top = Int(near[column.near]) * 3 + Int(near[column.far])
                let bottom = Int(far[column.near]) * 3 + Int(far[column.far])
                output[x] = UInt8((top * 3 + bottom + 8) / 16)
            }
        }
    }

    /// One pixel's samples as RGB: greyscale, YCbCr (transform 1), RGB (transform 0), CMYK or YCCK
    /// (transform 2; Adobe files store CMYK inverted).
    @inline(__always) private static func color(_ s: (Int, Int, Int, Int), count: Int, transform: Int, inverted: Bool)
        -> (UInt8, UInt8, UInt8)
    {
        // Saturating, so no sample (finite by construction) can trap the conversion.
        func clamp(_ value: Double) -> Int { min(255, max(0, Int(saturating: value.rounded()))) }
        func ycc(_ y: Int, _ cb: Int, _ cr: Int) -> (Int, Int, Int) {
            let luma = Double(y)
            let blue = Double(cb - 128)
            let red = Double(cr - 128)
            return (
                clamp(luma + 1.402 * red), clamp(luma - 0.344136 * blue - 0.714136 * red), clamp(luma + 1.772 * blue)
            )
        }
        switch count {
        case 1: return (UInt8(s.0), UInt8(s.0), UInt8(s.0))
        case 3:
            let rgb = transform == 0 ? (s.0, s.1, s.2) : ycc(s.0, s.1, s.2)
            return (UInt8(rgb.0), UInt8(rgb.1), UInt8(rgb.2))
        default:
            var cmy = transform == 2 ? ycc(s.0, s.1, s.2) : (s.0, s.1, s.2)
            var key = s.3
            if !inverted {
                cmy = (255 - cmy.0, 255 - cmy.1, 255 - cmy.2)
                key = 255 - key
            }
            return (UInt8(cmy.0 * key / 255), UInt8(cmy.1 * key / 255), UInt8(cmy.2 * key / 255))
        }
    }

    /// A component's samples, `storedPerLine × 8` wide.
    private static func plane(_ component: JPEGComponent, _ table: [Int]) -> [UInt8] {
        let stride = component.storedPerLine * 8
        var plane = [UInt8](repeating: 0, count: stride * component.storedPerColumn * 8)
        var block = [Float](repeating: 0, count: 64)
        component.coefficients.withUnsafeBufferPointer { coefficients in
            plane.withUnsafeMutableBufferPointer { plane in
                for row in 0..<component.blocksPerColumn {
                    for column in 0..<component.blocksPerLine {
                        let base = (row * component.storedPerLine + column) * 64
                        for k in 0..<64 { block[k] = Float(Int(coefficients[base + k]) * table[k]) }
                        if let flat = InverseDCT.flatSample(of: block) {
                            let value = sample(flat)
                            for y in 0..<8 {
                                let line = (row * 8 + y) * stride + column * 8
                                for x in 0..<8 { plane[line + x] = value }
                            }
                            continue
                        }
                        InverseDCT.transform(&block)
                        for y in 0..<8 {
                            let line = (row * 8 + y) * stride + column * 8
                            for x in 0..<8 { plane[line + x] = sample(block[y * 8 + x]) }
                        }
                    }
                }
            }
        }
        return plane
    }

    /// A sample centred on 0 as a byte, rounded and clamped.
    @inline(__always) private static func sample(_ centred: Float) -> UInt8 {
        UInt8(clamping: Int(saturating: Double(centred + 128).rounded()))
    }
}

/// The separable 8 × 8 inverse DCT of T.81 A.3.3, in floating point.
enum InverseDCT {
    /// `cosines[x * 8 + u]` = C(u)/2 · cos((2x + 1)uπ/16).
    private static let cosines: [Float] = (0..<64).map { index in
        let x = index / 8
        let u = index % 8
        let scale = u == 0 ? 1 / 2.0.squareRoot() : 1
        return Float(scale / 2 * cos(Double(2 * x + 1) * Double(u) * .pi / 16))
    }

    /// The one sample every position of a block holds when its 63 AC coefficients are 0 (flat areas
    /// of photos, and the blocks of a scan that ended early), or `nil` when they are not all 0. It is
    /// the value `transform` computes for such a block, to the bit: the DC term scaled by C(0)/2
    /// across and down, every other term an added zero.
    static func flatSample(of block: [Float]) -> Float? {
        for k in 1..<64 where block[k] != 0 { return nil }
        return cosines[0] * (block[0] * cosines[0])
    }

    /// Replaces 64 dequantised coefficients (natural order) with the samples they encode, centred on 0.
    static func transform(_ block: inout [Float]) {
        withUnsafeTemporaryAllocation(of: Float.self, capacity: 64) { rows in
            transform(&block, rows: rows)
        }
    }

    /// `transform`, its row pass written into `rows` (64 values), so no block allocates.
    private static func transform(_ block: inout [Float], rows: UnsafeMutableBufferPointer<Float>) {
        for v in 0..<8 {
            let row = v * 8
            if (1..<8).allSatisfy({ block[row + $0] == 0 }) {
                let dc = block[row] * cosines[0]
                for x in 0..<8 { rows[row + x] = dc }
                continue
            }
            for x in 0..<8 {
                var sum: Float = 0
                for u in 0..<8 { sum += cosines[x * 8 + u] * block[row + u] }
                rows[row + x] = sum
            }
        }
        for x in 0..<8 {
            for y in 0..<8 {
                var sum: Float = 0
                for v in 0..<8 { sum += cosines[y * 8 + v] * rows[v * 8 + x] }
                block[y * 8 + x] = sum
            }
        }
    }
}
