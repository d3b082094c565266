import ARVisSupport

/// Reads a PNG file (ISO/IEC 15948): greyscale, RGB, palette, grey + alpha and RGBA at every legal
/// bit depth, transparency chunks, and Adam7 interlacing, into 8-bit RGBA.
struct PNGDecoder {
    static let signature: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]

    private let bytes: [UInt8]
    private let maximumPixels: Int

    init(_ bytes: [UInt8], maximumPixels: Int) {
        self.bytes = bytes
        self.maximumPixels = maximumPixels
    }

    /// What the header says about the pixels.
    private struct Header {
        var width = 0, height = 0, bitDepth = 0, colorType = 0, interlaced = false

        var channels: Int {
            switch colorType {
            case 2: 3
            case 4: 2
            case 6: 4
            default: 1
            }
        }
        var bitsPerPixel: Int { channels * bitDepth }
        /// Bytes per complete pixel for filtering (at least 1).
        var filterStride: Int { max(1, bitsPerPixel / 8) }
        func rowBytes(_ width: Int) -> Int { (width * bitsPerPixel + 7) / 8 }
    }

    func decode() throws(GraphicsError) -> RasterImage {
        var header: Header?
        var palette: [UInt8] = []
        var transparency: [UInt8]? = nil
        var compressed: [UInt8] = []
        var position = Self.signature.count
        while true {
            guard position + 8 <= bytes.count else { throw invalid("it ends before its IEND chunk") }
            let length = Int(bigEndian(position))
            let type = String(decoding: bytes[position + 4..<position + 8], as: UTF8.self)
            let start = position + 8
            guard length <= bytes.count - start - 4 else { throw invalid("its \(type) chunk is truncated") }
            let data = bytes[start..<start + length]
            switch type {
            case "IHDR":
                guard header == nil else { throw invalid("it has more than one IHDR chunk") }
                header = try readHeader(data)
            case "PLTE": palette = Array(data)
            case "tRNS": transparency = Array(data)
            case "IDAT": compressed.append(contentsOf: data)
            case "IEND": break
            default: break
            }
            if type == "IEND" { break }
            guard header != nil else { throw invalid("its first chunk is not IHDR") }
            position = start + length + 4
        }
        guard let header else { throw invalid("it has no IHDR chunk") }
        if header.colorType == 3, palette.isEmpty { throw invalid("a palette picture has no PLTE chunk") }
        let expected = expectedLength(header)
        let filtered: [UInt8]
        do {
            filtered = try Inflate.zlib(compressed, limit: expected)
        } catch {
            throw invalid("its image data cannot be decompressed: \(error.reason)")
        }
        guard filtered.count == expected else {
            throw invalid("its image data holds \(filtered.count) bytes, not \(expected)")
        }
        return try pixels(filtered, header, palette: palette, transparency: transparency)
    }

    private func readHeader(_ data: ArraySlice<UInt8>) throws(GraphicsError) -> Header {
        guard data.count == 13 else { throw invalid("its IHDR chunk is \(data.count) bytes, not 13") }
        let at = data.startIndex
        var header = Header(
            width: Int(bigEndian(at)), height: Int(bigEndian(at + 4)), bitDepth: Int(data[at + 8]),
            colorType: Int(data[at + 9]), interlaced: data[at + 12] == 1)
        let depths: [Int: [Int]] = [0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16]]
        guard depths[header.colorType]?.contains(header.bitDepth) == true else {
            throw invalid("colour type \(header.colorType) at \(header.bitDepth) bits is not a legal combination")
        }
        guard data[at + 10] == 0, data[at + 11] == 0, data[at + 12] <= 1 else {
            throw invalid("it names an unknown compression, filter or interlace method")
        }
        try RasterImage.checkSize(
            width: header.width, height: header.height, maximumPixels: maximumPixels, format: "PNG")
        header.interlaced = data[at + 12] == 1
        return header
    }

    /// The Adam7 passes (x start, y start, x step, y step), or one pass for the whole picture.
    private static func passes(_ header: Header) -> [(Int, Int, Int, Int)] {
        header.interlaced
            ? [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
            : [(0, 0, 1, 1)]
    }

    private static func passSize(_ pass: (Int, Int, Int, Int), _ header: Header) -> (width: Int, height: Int) {
        ((header.width - pass.0 + pass.2 - 1) / pass.2, (header.height - pass.1 + pass.3 - 1) / pass.3)
    }

    private func expectedLength(_ header: Header) -> Int {
        Self.passes(header).reduce(0) { total, pass in
            let size = Self.passSize(pass, header)
            return size.width > 0 && size.height > 0 ? total + (header.rowBytes(size.width) + 1) * size.height : total
        }
    }

    /// Unfilters every pass and spreads its pixels into the picture.
    private func pixels(_ data: [UInt8], _ header: Header, palette: [UInt8], transparency: [UInt8]?)
        throws(GraphicsError) -> RasterImage
    {
        var output = [UInt8](repeating: 0, count: header.width * header.height * 4)
        var offset = 0
        for pass in Self.passes(header) {
            let size = Self.passSize(pass, header)
            guard size.width > 0, size.height > 0 else { continue }
            let rowBytes = header.rowBytes(size.width)
            var previous = [UInt8](repeating: 0, count: rowBytes)
            var current = previous
            for row in 0..<size.height {
                let filter = data[offset]
                for index in 0..<rowBytes { current[index] = data[offset + 1 + index] }
                offset += rowBytes + 1
                guard Self.unfilter(&current, previous, filter: filter, stride: header.filterStride) else {
                    throw invalid("row \(row + 1) has the unknown filter type \(filter)")
                }
                let y = pass.1 + row * pass.3
                if header.bitDepth == 8, header.colorType == 6 || header.colorType == 2 && transparency == nil,
                    pass.2 == 1
                {
                    Self.copyRow(current, channels: header.channels, into: &output, at: y * header.width * 4)
                    swap(&current, &previous)
                    continue
                }
                for column in 0..<size.width {
                    let x = pass.0 + column * pass.2
                    let target = (y * header.width + x) * 4
                    let pixel = Self.pixel(current, column, header, palette: palette, transparency: transparency)
                    output[target] = pixel.0
                    output[target + 1] = pixel.1
                    output[target + 2] = pixel.2
                    output[target + 3] = pixel.3
                }
                swap(&current, &previous)
            }
        }
        return RasterImage(width: header.width, height: header.height, pixels: output)
    }

    /// An 8-bit RGB or RGBA row of a non-interlaced picture, straight into the output.
    private static func copyRow(_ row: [UInt8], channels: Int, into output: inout [UInt8], at start: Int) {
        row.withUnsafeBufferPointer { row in
            output.withUnsafeMutableBufferPointer { output in
                var source = 0
                var target = start
                while source < row.count {
                    output[target] = row[source]
                    output[target + 1] = row[source + 1]
                    output[target + 2] = row[source + 2]
                    output[target + 3] = channels == 4 ? row[source + 3] : 255
                    source += channels
                    target += 4
                }
            }
        }
    }

    /// Reverses one row's filter in place; `false` for an unknown filter type.
    private static func unfilter(_ row: inout [UInt8], _ above: [UInt8], filter: UInt8, stride: Int) -> Bool {
        let count = row.count
        switch filter {
        case 0: break
        case 1: for index in stride..<max(stride, count) { row[index] &+= row[index - stride] }
        case 2: for index in 0..<count { row[index] &+= above[index] }
        case 3:
            for index in 0..<count {
                let left = index >= stride ? Int(row[index - stride]) : 0
                row[index] &+= UInt8((left + Int(above[index])) / 2)
            }
        case 4:
            for index in 0..<count {
                let left = index >= stride ? Int(row[index - stride]) : 0
                let upLeft = index >= stride ? Int(above[index - stride]) : 0
                row[index] &+= UInt8(paeth(left, Int(above[index]), upLeft))
            }
        default: return false
        }
        return true
    }

    private static func paeth(_ a: Int, _ b: Int, _ c: Int) -> Int {
        let p = a + b - c
        let pa = abs(p - a)
        let pb = abs(p - b)
        let pc = abs(p - c)
        return pa <= pb && pa <= pc ? a : pb <= pc ? b : c
    }

    /// Pixel `column` of an unfiltered row as 8-bit RGBA.
    private static func pixel(_ row: [UInt8], _ column: Int, _ header: Header, palette: [UInt8], transparency: [UInt8]?)
        -> (UInt8, UInt8, UInt8, UInt8)
    {
        let depth = header.bitDepth
        /// Sample `index` of the pixel at its own depth (16-bit samples whole).
        func sample(_ index: Int) -> Int {
            let bit = (column * header.channels + index) * depth
            switch depth {
            case 16: return Int(row[bit / 8]) << 8 | Int(row[bit / 8 + 1])
            case 8: return Int(row[bit / 8])
            default: return Int(row[bit / 8] >> UInt8(8 - depth - bit % 8)) & (1 << depth - 1)
            }
        }
        /// A sample scaled to 8 bits.
        func byte(_ value: Int) -> UInt8 { depth == 16 ? UInt8(value >> 8) : UInt8(value * 255 / (1 << depth - 1)) }
        /// The 16- or 8-bit key colour of tRNS, sample `index`.
        func key(_ index: Int) -> Int? {
            guard let transparency, transparency.count >= 2 * index + 2 else { return nil }
            return Int(transparency[2 * index]) << 8 | Int(transparency[2 * index + 1])
        }
        switch header.colorType {
        case 0:
            let grey = sample(0)
            return (byte(grey), byte(grey), byte(grey), key(0) == grey ? 0 : 255)
        case 2:
            let red = sample(0)
            let green = sample(1)
            let blue = sample(2)
            let transparent = key(0) == red && key(1) == green && key(2) == blue
            return (byte(red), byte(green), byte(blue), transparent ? 0 : 255)
        case 3:
            let index = sample(0)
            guard index * 3 + 2 < palette.count else { return (0, 0, 0, 255) }
            let alpha = transparency.flatMap { index < $0.count ? $0[index] : nil } ?? 255
            return (palette[index * 3], palette[index * 3 + 1], palette[index * 3 + 2], alpha)
        case 4:
            let grey = byte(sample(0))
            return (grey, grey, grey, byte(sample(1)))
        default:
            return (byte(sample(0)), byte(sample(1)), byte(sample(2)), byte(sample(3)))
        }
    }

    private func bigEndian(_ at: Int) -> UInt32 {
        UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
    }

    private func invalid(_ reason: String) -> GraphicsError {
        GraphicsError(.imageInvalid, "the PNG picture is damaged: \(reason)")
    }
}
