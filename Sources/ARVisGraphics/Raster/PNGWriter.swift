public import ARVisSupport
import Foundation

/// Rasterises a ``Drawing`` into a compressed PNG, anti-aliased, with text drawn from the fonts' glyph outlines.
///
/// ```swift
/// let png = try PNGWriter(fonts: FontLibrary.standard(), scale: 2).write(drawing)
/// ```
public struct PNGWriter: Sendable {
    /// Pixels per drawing unit (1, 2, 3 …).
    public var scale: Double
    /// The fonts text is drawn with.
    public let fonts: FontLibrary
    /// A colour painted under the drawing, or `nil` to keep transparency.
    public var background: DrawingColor?
    /// The largest canvas allowed, in pixels.
    public static let maximumPixels = 64_000_000
    /// How the compressed blocks are coded: each with its own Huffman codes (smaller files, the
    /// default), or with DEFLATE's fixed codes (a little faster).
    public var huffmanCodes: HuffmanCodes = .dynamic

    /// The Huffman codes of the compressed image data.
    public enum HuffmanCodes: Sendable {
        /// Codes built from each block's own symbol counts (or the fixed ones, where those are shorter).
        case dynamic
        /// DEFLATE's fixed codes everywhere.
        case fixed
    }

    /// Creates a writer.
    public init(fonts: FontLibrary, scale: Double = 1, background: DrawingColor? = nil) {
        self.fonts = fonts
        self.scale = scale
        self.background = background
    }

    /// The PNG file's bytes.
    /// - Throws: ``GraphicsError`` `canvasTooLarge` when the image would exceed ``maximumPixels``.
    public func write(_ drawing: Drawing) throws -> [UInt8] {
        var warnings: [GraphicsError] = []
        return try write(drawing, warnings: &warnings)
    }

    /// The PNG file's bytes, with a warning for each picture that could not be decoded (it is drawn
    /// as its fallback; the error's `location` is the picture's URL).
    /// - Throws: ``GraphicsError`` `canvasTooLarge` when the image would exceed ``maximumPixels``.
    public func write(_ drawing: Drawing, warnings: inout [GraphicsError]) throws -> [UInt8] {
        let width = max(1, Int(saturating: (drawing.extent.width * scale).rounded(.up)))
        let height = max(1, Int(saturating: (drawing.extent.height * scale).rounded(.up)))
        guard scale > 0, scale.isFinite,
            width.multipliedReportingOverflow(by: height).partialValue <= Self.maximumPixels,
            width <= 100_000, height <= 100_000
        else {
            throw GraphicsError(
                .canvasTooLarge,
                "a \(width)×\(height)-pixel image is larger than the \(Self.maximumPixels)-pixel limit; lower --scale or the widget size"
            )
        }
        let canvas = Canvas(width: width, height: height, fonts: fonts)
        if let background {
            canvas.draw(
                .shape(
                    Shape(
                        path: .rect(Rect(x: 0, y: 0, width: drawing.extent.width, height: drawing.extent.height)),
                        fill: background)),
                transform: .scale(scale, scale), opacity: 1)
        }
        canvas.draw(drawing.elements, transform: .scale(scale, scale), opacity: 1)
        warnings += canvas.pictureFailures
        return PNGEncoder.encode(
            width: width, height: height,
            premultiplied: UnsafeBufferPointer(start: canvas.pixels, count: width * height * 4),
            dynamic: huffmanCodes == .dynamic)
    }
}

/// Builds the PNG chunks: RGB when every pixel is opaque, else RGBA. ARVisModel's thumbnails use it too.
package enum PNGEncoder {
    /// A PNG of `width × height` premultiplied RGBA float pixels (0…1), rows top to bottom.
    package static func encode(
        width: Int, height: Int, premultiplied source: UnsafeBufferPointer<Float>, dynamic: Bool = true
    ) -> [UInt8] {
        let opaque = { () -> Bool in
            var index = 3
            while index < source.count {
                if source[index] < 0.998 { return false }
                index += 4
            }
            return true
        }()
        let channels = opaque ? 3 : 4
        let filtered = filteredRows(source, width: width, height: height, channels: channels)
        var file: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]
        var header: [UInt8] = []
        appendBigEndian(UInt32(width), to: &header)
        appendBigEndian(UInt32(height), to: &header)
        header += [8, opaque ? 2 : 6, 0, 0, 0]
        appendChunk("IHDR", header, to: &file)
        appendChunk("IDAT", Deflate.zlib(filtered, dynamic: dynamic), to: &file)
        appendChunk("IEND", [], to: &file)
        return file
    }

    /// A PNG of `width × height` 8-bit RGB pixels, rows top to bottom (every row Up-filtered);
    /// `chainLimit` as ``Deflate``'s (lower for noisy texture maps: faster, a little larger).
    package static func encode(width: Int, height: Int, rgb: [UInt8], chainLimit: Int = 16) -> [UInt8] {
        let rowLength = width * 3
        var filtered = [UInt8](repeating: 0, count: (rowLength + 1) * height)
        rgb.withUnsafeBufferPointer { source in
            filtered.withUnsafeMutableBufferPointer { output in
                for row in 0..<height {
                    let line = output.baseAddress! + row * (rowLength + 1)
                    let current = source.baseAddress! + row * rowLength
                    line[0] = 2
                    if row == 0 {
                        (line + 1).update(from: current, count: rowLength)
                    } else {
                        subtract(current, current - rowLength, count: rowLength, into: line + 1)
                    }
                }
            }
        }
        var file: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]
        var header: [UInt8] = []
        appendBigEndian(UInt32(width), to: &header)
        appendBigEndian(UInt32(height), to: &header)
        header += [8, 2, 0, 0, 0]
        appendChunk("IHDR", header, to: &file)
        appendChunk("IDAT", Deflate.zlib(filtered, chainLimit: chainLimit), to: &file)
        appendChunk("IEND", [], to: &file)
        return file
    }

    /// The image as PNG scanlines: each pixel un-premultiplied to 8 bits, the first row filtered with
    /// Sub and the others with Up (flat areas, most of a widget, become runs of zeros).
    private static func filteredRows(_ source: UnsafeBufferPointer<Float>, width: Int, height: Int, channels: Int)
        -> [UInt8]
    {
        let rowLength = width * channels
        var output = [UInt8](repeating: 0, count: (rowLength + 1) * height)
        var current = UnsafeMutablePointer<UInt8>.allocate(capacity: rowLength)
        var previous = UnsafeMutablePointer<UInt8>.allocate(capacity: rowLength)
        defer {
            current.deallocate()
            previous.deallocate()
        }
        output.withUnsafeMutableBufferPointer { output in
            for row in 0..<height {
                let pixels = source.baseAddress! + row * width * 4
                convert(pixels, count: width, channels: channels, into: current)
                let line = output.baseAddress! + row * (rowLength + 1)
                if row == 0 {
                    line[0] = 1
                    for index in 0..<rowLength {
                        line[1 + index] = current[index] &- (index >= channels ? current[index - channels] : 0)
                    }
                } else {
                    line[0] = 2
                    subtract(current, previous, count: rowLength, into: line + 1)
                }
                swap(&current, &previous)
            }
        }
        return output
    }

    /// Un-premultiplies `count` float pixels into 8-bit RGB or RGBA. A pixel equal to the one before
    /// (most of a widget is flat colour) reuses its bytes.
    @inline(__always) private static func convert(
        _ pixels: UnsafePointer<Float>, count: Int, channels: Int, into out: UnsafeMutablePointer<UInt8>
    ) {
        let raw = UnsafeRawPointer(pixels)
        var last: (UInt64, UInt64) = (.max, .max)
        var bytes: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
        for x in 0..<count {
            let bits = (
                raw.loadUnaligned(fromByteOffset: x * 16, as: UInt64.self),
                raw.loadUnaligned(fromByteOffset: x * 16 + 8, as: UInt64.self)
            )
            if bits != last {
                last = bits
                let pixel = pixels + x * 4
                let alpha = pixel[3]
                if alpha <= 0 {
                    bytes = (0, 0, 0, 0)
                } else {
                    let scale: Float = alpha >= 1 ? 255 : 255 / alpha
                    bytes = (byte(pixel[0] * scale), byte(pixel[1] * scale), byte(pixel[2] * scale), byte(alpha * 255))
                }
            }
            let target = out + x * channels
            target[0] = bytes.0
            target[1] = bytes.1
            target[2] = bytes.2
            if channels == 4 { target[3] = bytes.3 }
        }
    }

    /// A 0…255 value rounded to the nearest byte (values outside are clamped). Adding 2²³ leaves the
    /// rounded integer in the low mantissa bits, which avoids a checked float-to-integer conversion.
    @inline(__always) private static func byte(_ value: Float) -> UInt8 {
        UInt8(truncatingIfNeeded: (min(255, max(0, value)) + 8_388_608).bitPattern)
    }

    /// `out[i] = a[i] &- b[i]`, sixteen bytes at a time.
    @inline(__always) private static func subtract(
        _ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, count: Int, into out: UnsafeMutablePointer<UInt8>
    ) {
        var index = 0
        let rawA = UnsafeRawPointer(a)
        let rawB = UnsafeRawPointer(b)
        let rawOut = UnsafeMutableRawPointer(out)
        while index + 16 <= count {
            let difference =
                rawA.loadUnaligned(fromByteOffset: index, as: SIMD16<UInt8>.self)
                &- rawB.loadUnaligned(fromByteOffset: index, as: SIMD16<UInt8>.self)
            rawOut.storeBytes(of: difference, toByteOffset: index, as: SIMD16<UInt8>.self)
            index += 16
        }
        while index < count {
            out[index] = a[index] &- b[index]
            index += 1
        }
    }

    private static func appendBigEndian(_ value: UInt32, to bytes: inout [UInt8]) {
        for shift in [24, 16, 8, 0] { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    private static func appendChunk(_ type: String, _ data: [UInt8], to file: inout [UInt8]) {
        appendBigEndian(UInt32(data.count), to: &file)
        let typeBytes = Array(type.utf8)
        file += typeBytes
        file += data
        appendBigEndian(crc32Update(crc32Update(0xFFFF_FFFF, typeBytes), data) ^ 0xFFFF_FFFF, to: &file)
    }

    private static let crcTable: [UInt32] = (0..<256).map { index -> UInt32 in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 != 0 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    /// The CRC-32 of `bytes` (finished, as PNG stores it).
    package static func crc32(_ bytes: [UInt8]) -> UInt32 { crc32Update(0xFFFF_FFFF, bytes) ^ 0xFFFF_FFFF }

    private static func crc32Update(_ start: UInt32, _ bytes: [UInt8]) -> UInt32 {
        crcTable.withUnsafeBufferPointer { table in
            bytes.withUnsafeBufferPointer { data in
                var crc = start
                for byte in data { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
                return crc
            }
        }
    }
}
