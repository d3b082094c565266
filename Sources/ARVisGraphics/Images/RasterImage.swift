public import ARVisSupport

/// A decoded picture: 8-bit red, green, blue and alpha per pixel (not premultiplied), rows top to bottom.
///
/// ```swift
/// let picture = try RasterImage(decoding: jpegBytes)
/// print(picture.width, picture.height)
/// ```
public struct RasterImage: Sendable, Hashable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width × height × 4` bytes: R, G, B, A.
    public let pixels: [UInt8]

    /// The most pixels a picture may have; larger ones are refused before their pixels are decoded.
    public static let maximumPixels = 40_000_000

    /// Wraps decoded pixels.
    /// - Precondition: `pixels.count == width * height * 4`.
    init(width: Int, height: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// Decodes PNG (every colour type, bit depth and interlacing) or JPEG (baseline and progressive,
    /// greyscale, YCbCr, RGB and CMYK, turned upright by its Exif orientation).
    /// - Throws: ``GraphicsError`` `imageUnsupported` for other formats (GIF, WebP, SVG, lossless or
    ///   arithmetic-coded JPEG), `imageInvalid` for damaged or truncated files, `imageTooLarge` past
    ///   `maximumPixels`.
    public init(decoding bytes: [UInt8], maximumPixels: Int = RasterImage.maximumPixels) throws(GraphicsError) {
        if bytes.starts(with: PNGDecoder.signature) {
            self = try PNGDecoder(bytes, maximumPixels: maximumPixels).decode()
        } else if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            self = try JPEGDecoder(bytes, maximumPixels: maximumPixels).decode()
        } else {
            throw GraphicsError(.imageUnsupported, "only PNG and JPEG pictures can be drawn into PNG output")
        }
    }

    /// The size a PNG or JPEG picture is shown at (a JPEG's Exif orientation applied), read from its
    /// header alone; `nil` for other formats or a damaged header.
    public static func displaySize(of bytes: [UInt8]) -> (width: Int, height: Int)? {
        if bytes.count >= 24, bytes.starts(with: PNGDecoder.signature) {
            let read = { (at: Int) in bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
            return (read(16), read(20))
        }
        guard bytes.starts(with: [0xFF, 0xD8, 0xFF]) else { return nil }
        return JPEGDecoder(bytes, maximumPixels: maximumPixels).displaySize()
    }

    /// The picture reduced by a whole factor, each pixel the mean of a square of the original's, so
    /// it has at most `maximumPixels` pixels (itself when it has no more already).
    public func reduced(toAtMost maximumPixels: Int) -> RasterImage {
        guard width * height > maximumPixels, maximumPixels > 0 else { return self }
        // The smallest whole factor that fits: at most the longer side, where one pixel remains.
        var factor = 2
        while ((width + factor - 1) / factor) * ((height + factor - 1) / factor) > maximumPixels { factor += 1 }
        let outWidth = (width + factor - 1) / factor
        let outHeight = (height + factor - 1) / factor
        var sums = [SIMD4<UInt64>](repeating: .zero, count: outWidth * outHeight)
        var counts = [UInt64](repeating: 0, count: outWidth * outHeight)
        pixels.withUnsafeBufferPointer { pixels in
            sums.withUnsafeMutableBufferPointer { sums in
                counts.withUnsafeMutableBufferPointer { counts in
                    for y in 0..<height {
                        let row = (y / factor) * outWidth
                        var from = y * width * 4
                        for x in 0..<width {
                            let pixel = SIMD4(
                                UInt64(pixels[from]), UInt64(pixels[from + 1]), UInt64(pixels[from + 2]),
                                UInt64(pixels[from + 3]))
                            sums[row + x / factor] &+= pixel
                            counts[row + x / factor] &+= 1
                            from += 4
                        }
                    }
                }
            }
        }
        var out = [UInt8](repeating: 0, count: outWidth * outHeight * 4)
        for index in counts.indices {
            let count = counts[index]
            let mean = (sums[index] &+ SIMD4(repeating: count / 2)) / SIMD4(repeating: count)
            for channel in 0..<4 { out[index * 4 + channel] = UInt8(truncatingIfNeeded: mean[channel]) }
        }
        return RasterImage(width: outWidth, height: outHeight, pixels: out)
    }

    /// Checks a picture's declared size before any pixel is decoded.
    static func checkSize(width: Int, height: Int, maximumPixels: Int, format: String) throws(GraphicsError) {
        guard width > 0, height > 0 else {
            throw GraphicsError(.imageInvalid, "the \(format) picture is \(width)×\(height) pixels")
        }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= maximumPixels else {
            throw GraphicsError(
                .imageTooLarge, "the \(width)×\(height) \(format) picture has more than \(maximumPixels) pixels")
        }
    }

    /// The same picture turned by an Exif orientation (1–8).
    func oriented(_ orientation: Int) -> RasterImage {
        guard (2...8).contains(orientation) else { return self }
        let swaps = orientation >= 5
        let outWidth = swaps ? height : width
        let outHeight = swaps ? width : height
        var out = [UInt8](repeating: 0, count: pixels.count)
        for y in 0..<outHeight {
            for x in 0..<outWidth {
                // The source pixel shown at (x, y) of the upright picture.
                let (sx, sy): (Int, Int)
                switch orientation {
                case 2: (sx, sy) = (width - 1 - x, y)
                case 3: (sx, sy) = (width - 1 - x, height - 1 - y)
                case 4: (sx, sy) = (x, height - 1 - y)
                case 5: (sx, sy) = (y, x)
                case 6: (sx, sy) = (y, height - 1 - x)
                case 7: (sx, sy) = (width - 1 - y, height - 1 - x)
                default: (sx, sy) = (width - 1 - y, x)
                }
                let from = (sy * width + sx) * 4
                let to = (y * outWidth + x) * 4
                out[to] = pixels[from]
                out[to + 1] = pixels[from + 1]
                out[to + 2] = pixels[from + 2]
                out[to + 3] = pixels[from + 3]
            }
        }
        return RasterImage(width: outWidth, height: outHeight, pixels: out)
    }
}
