import ARVisSupport
import Foundation

/// What fills a covered pixel: premultiplied red, green, blue and alpha, each 0…1.
protocol Paint {
    /// The colour at the centre of device pixel (`x`, `y`).
    func color(x: Int, y: Int) -> SIMD4<Float>
}

/// One colour everywhere.
struct SolidPaint: Paint {
    let premultiplied: SIMD4<Float>

    init(_ color: DrawingColor) {
        let alpha = Float(color.opacity)
        premultiplied = SIMD4(
            Float(color.red) / 255 * alpha, Float(color.green) / 255 * alpha, Float(color.blue) / 255 * alpha, alpha)
    }

    @inline(__always) func color(x: Int, y: Int) -> SIMD4<Float> { premultiplied }
}

/// A picture mapped onto the canvas by an affine transform, sampled bilinearly. A picture shrunk by
/// more than half is first averaged down by whole blocks, so fine detail does not alias.
struct PicturePaint: Paint {
    /// Premultiplied RGBA floats, `width × height`.
    private let pixels: [SIMD4<Float>]
    private let width: Int, height: Int
    /// Device pixel → picture pixel.
    private let inverse: Transform

    /// - Parameter toPixels: picture pixel → device pixel. `nil` when it collapses the picture.
    init?(_ picture: RasterImage, toPixels: Transform, opacity: Double) {
        let determinant = toPixels.a * toPixels.d - toPixels.b * toPixels.c
        guard determinant.isFinite, abs(determinant) > 1e-12 else { return nil }
        // Picture pixels per device pixel along the picture's own axes.
        let shrink = min(1 / hypot(toPixels.a, toPixels.b), 1 / hypot(toPixels.c, toPixels.d))
        let block = shrink >= 2 ? Int(saturating: shrink.rounded(.down)) : 1
        let reduced = Self.averaged(
            picture, block: min(block, max(picture.width, picture.height)), opacity: Float(opacity))
        pixels = reduced.pixels
        width = reduced.width
        height = reduced.height
        let mapping = toPixels.concatenating(
            .scale(Double(picture.width) / Double(width), Double(picture.height) / Double(height)))
        let scale = 1 / (mapping.a * mapping.d - mapping.b * mapping.c)
        inverse = Transform(
            a: mapping.d * scale, b: -mapping.b * scale, c: -mapping.c * scale, d: mapping.a * scale,
            tx: (mapping.c * mapping.ty - mapping.d * mapping.tx) * scale,
            ty: (mapping.b * mapping.tx - mapping.a * mapping.ty) * scale)
    }

    /// The picture premultiplied (and faded by `opacity`), each `block × block` square averaged into one pixel.
    private static func averaged(_ picture: RasterImage, block: Int, opacity: Float) -> (
        pixels: [SIMD4<Float>], width: Int, height: Int
    ) {
        let width = (picture.width + block - 1) / block
        let height = (picture.height + block - 1) / block
        var sums = [SIMD4<Float>](repeating: .zero, count: width * height)
        var counts = [Float](repeating: 0, count: width * height)
        picture.pixels.withUnsafeBufferPointer { bytes in
            for y in 0..<picture.height {
                let row = (y / block) * width
                for x in 0..<picture.width {
                    let source = (y * picture.width + x) * 4
                    let alpha = Float(bytes[source + 3]) / 255
                    let pixel =
                        SIMD4(Float(bytes[source]), Float(bytes[source + 1]), Float(bytes[source + 2]), 255)
                        * (alpha / 255)
                    sums[row + x / block] += pixel
                    counts[row + x / block] += 1
                }
            }
        }
        for index in sums.indices { sums[index] *= opacity / counts[index] }
        return (sums, width, height)
    }

    @inline(__always) func color(x: Int, y: Int) -> SIMD4<Float> {
        let point = inverse.apply(Point(Double(x) + 0.5, Double(y) + 0.5))
        // Clamped to the picture (a NaN, which a degenerate mapping could give, reads as its corner).
        let u = point.x.isNaN ? 0 : min(Double(width - 1), max(0, point.x - 0.5))
        let v = point.y.isNaN ? 0 : min(Double(height - 1), max(0, point.y - 0.5))
        let left = Int(u)
        let top = Int(v)
        let right = min(left + 1, width - 1)
        let bottom = min(top + 1, height - 1)
        let fx = Float(u - Double(left))
        let fy = Float(v - Double(top))
        let upper = pixels[top * width + left] * (1 - fx) + pixels[top * width + right] * fx
        let lower = pixels[bottom * width + left] * (1 - fx) + pixels[bottom * width + right] * fx
        return upper * (1 - fy) + lower * fy
    }
}
