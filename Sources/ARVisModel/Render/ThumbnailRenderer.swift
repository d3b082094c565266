import ARVisGraphics
import ARVisSpatial
public import ARVisSupport
import Foundation

/// Draws a ``Model`` to a PNG without a GPU: perspective projection through a ``ThumbnailCamera``,
/// a depth buffer, 4× supersampled edges, and PBR-lite shading — the base colour texture and
/// factor, metalness and roughness, one key and one fill light, emissive light — in linear light,
/// written as sRGB.
///
/// ```swift
/// let png = try ThumbnailRenderer(size: 512).png(of: model)
/// ```
public struct ThumbnailRenderer: Sendable {
    /// The image's width and height in pixels.
    public var size: Int
    /// The background as straight (not premultiplied) RGBA in 0…1; alpha 0 is transparent.
    public var background: SIMD4<Float>
    /// Samples per pixel along each axis (2 gives 4× supersampling).
    public var supersampling: Int = 2
    /// The most pixels a side may have.
    public static let maximumSize = 4096

    /// Creates a renderer for square images of `size` pixels.
    public init(size: Int = 512, background: SIMD4<Float> = .zero) {
        self.size = size
        self.background = background
    }

    /// The thumbnail as PNG bytes.
    /// - Throws: ``ModelError`` `tooLarge` for a size outside 1…``maximumSize``.
    public func png(of model: Model, camera: ThumbnailCamera? = nil) throws(ModelError) -> [UInt8] {
        let pixels = try render(model, camera: camera)
        return pixels.withUnsafeBufferPointer { PNGEncoder.encode(width: size, height: size, premultiplied: $0) }
    }

    /// The thumbnail as premultiplied RGBA floats, rows top to bottom.
    public func render(_ model: Model, camera: ThumbnailCamera? = nil) throws(ModelError) -> [Float] {
        guard (1...Self.maximumSize).contains(size), (1...4).contains(supersampling) else {
            throw ModelError(
                .tooLarge,
                "a thumbnail is 1 to \(Self.maximumSize) pixels wide, with 1 to 4 samples a side; \(size) was asked")
        }
        let model = model.normalized()
        let camera = camera ?? ThumbnailCamera(framing: model.bounds)
        var raster = Rasterizer(width: size * supersampling, height: size * supersampling, camera: camera)
        let instances = model.instances
        for (number, instance) in instances.enumerated() {
            raster.draw(model.meshes[instance.mesh], transform: instance.transform, instance: number)
        }
        let shader = Shader(model: model, instances: instances, camera: camera)
        return resolve(raster, shader: shader)
    }

    /// Each pixel from its `supersampling × supersampling` samples, as GPUs resolve multisampling:
    /// every triangle covering some of a pixel's samples is shaded once, at the first sample it
    /// covers, and weighted by its share of the samples; uncovered samples show the background.
    private func resolve(_ raster: Rasterizer, shader: Shader) -> [Float] {
        let n = supersampling
        let width = size * n
        let share = 1 / Float(n * n)
        let back = SIMD4(
            background.x * background.w, background.y * background.w, background.z * background.w, background.w)
        var out = [Float](repeating: 0, count: size * size * 4)
        var triangles: [(id: Int32, count: Int, sample: Int)] = []
        for y in 0..<size {
            for x in 0..<size {
                triangles.removeAll(keepingCapacity: true)
                var uncovered = 0
                for dy in 0..<n {
                    for dx in 0..<n {
                        let sample = (y * n + dy) * width + x * n + dx
                        let id = raster.triangle[sample]
                        if id < 0 {
                            uncovered += 1
                        } else if let k = triangles.firstIndex(where: { $0.id == id }) {
                            triangles[k].count += 1
                        } else {
                            triangles.append((id, 1, sample))
                        }
                    }
                }
                var sum = back * Float(uncovered)
                for triangle in triangles {
                    let color = shader.color(
                        ofTriangle: Int(triangle.id), weights: raster.weights[triangle.sample],
                        starts: raster.instanceStarts)
                    sum += (color + back * (1 - color.w)) * Float(triangle.count)
                }
                sum *= share
                let at = (y * size + x) * 4
                out[at] = sum.x
                out[at + 1] = sum.y
                out[at + 2] = sum.z
                out[at + 3] = sum.w
            }
        }
        return out
    }
}
