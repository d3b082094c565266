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

    /// Creates a writer.
    public init(fonts: FontLibrary, scale: Double = 1, background: DrawingColor? = nil) {
        self.fonts = fonts
        self.scale = scale
        self.background = background
    }

    /// The PNG file's bytes.
    /// - Throws: ``GraphicsError`` `canvasTooLarge` when the image would exceed ``maximumPixels``.
    public func write(_ drawing: Drawing) throws -> [UInt8] {
        let width = max(1, Int((drawing.extent.width * scale).rounded(.up)))
        let height = max(1, Int((drawing.extent.height * scale).rounded(.up)))
        guard scale > 0, scale.isFinite, width.multipliedReportingOverflow(by: height).partialValue <= Self.maximumPixels,
              width <= 100_000, height <= 100_000 else {
            throw GraphicsError(.canvasTooLarge, "a \(width)×\(height)-pixel image is larger than the \(Self.maximumPixels)-pixel limit; lower --scale or the widget size")
        }
        var canvas = Canvas(width: width, height: height, fonts: fonts)
        if let background {
            canvas.draw(.shape(Shape(path: .rect(Rect(x: 0, y: 0, width: drawing.extent.width, height: drawing.extent.height)), fill: background)),
                        transform: .scale(scale, scale), opacity: 1)
        }
        canvas.draw(drawing.elements, transform: .scale(scale, scale), opacity: 1)
        return PNGEncoder.encode(width: width, height: height, premultiplied: canvas.pixels)
    }
}

/// Builds the PNG chunks: RGB when every pixel is opaque, else RGBA; rows filtered by the better of Sub and Up.
enum PNGEncoder {
    static func encode(width: Int, height: Int, premultiplied pixels: [Float]) -> [UInt8] {
        var opaque = true
        for index in Swift.stride(from: 3, to: pixels.count, by: 4) where pixels[index] < 0.998 {
            opaque = false
            break
        }
        let channels = opaque ? 3 : 4
        let rowLength = width * channels
        var rows = [UInt8](repeating: 0, count: rowLength * height)
        for pixel in 0..<(width * height) {
            let alpha = pixels[pixel * 4 + 3]
            let unpremultiply: Float = alpha > 0 ? 1 / alpha : 0
            for channel in 0..<3 {
                rows[pixel * channels + channel] = UInt8(min(255, max(0, pixels[pixel * 4 + channel] * unpremultiply * 255 + 0.5)))
            }
            if !opaque { rows[pixel * channels + 3] = UInt8(min(255, max(0, alpha * 255 + 0.5))) }
        }
        let filtered = filter(rows, rowLength: rowLength, height: height, bytesPerPixel: channels)
        var file: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]
        var header: [UInt8] = []
        appendBigEndian(UInt32(width), to: &header)
        appendBigEndian(UInt32(height), to: &header)
        header += [8, opaque ? 2 : 6, 0, 0, 0]
        appendChunk("IHDR", header, to: &file)
        appendChunk("IDAT", Deflate.zlib(filtered), to: &file)
        appendChunk("IEND", [], to: &file)
        return file
    }

    private static func filter(_ rows: [UInt8], rowLength: Int, height: Int, bytesPerPixel: Int) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: (rowLength + 1) * height)
        var sub = [UInt8](repeating: 0, count: rowLength), up = [UInt8](repeating: 0, count: rowLength)
        for row in 0..<height {
            let start = row * rowLength
            var subCost = 0, upCost = 0
            for column in 0..<rowLength {
                let value = rows[start + column]
                let left = column >= bytesPerPixel ? rows[start + column - bytesPerPixel] : 0
                let above = row > 0 ? rows[start - rowLength + column] : 0
                sub[column] = value &- left
                up[column] = value &- above
                subCost += Int(Int8(bitPattern: sub[column]).magnitude)
                upCost += Int(Int8(bitPattern: up[column]).magnitude)
            }
            let out = row * (rowLength + 1)
            let useUp = upCost < subCost
            output[out] = useUp ? 2 : 1
            for column in 0..<rowLength { output[out + 1 + column] = useUp ? up[column] : sub[column] }
        }
        return output
    }

    private static func appendBigEndian(_ value: UInt32, to bytes: inout [UInt8]) {
        for shift in [24, 16, 8, 0] { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    private static func appendChunk(_ type: String, _ data: [UInt8], to file: inout [UInt8]) {
        appendBigEndian(UInt32(data.count), to: &file)
        let typeBytes = Array(type.utf8)
        file += typeBytes
        file += data
        appendBigEndian(crc32(typeBytes + data), to: &file)
    }

    private static let crcTable: [UInt32] = (0..<256).map { index -> UInt32 in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 != 0 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}
