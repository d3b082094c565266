import ARVisSpatial
import Foundation

/// The visibility pass of the thumbnail renderer: every triangle projected and scan-converted into a
/// depth buffer that keeps, per sample, the nearest triangle and its perspective-correct
/// barycentric coordinates. Both faces of every triangle are drawn (scans often have flipped ones).
struct Rasterizer {
    let width: Int
    let height: Int
    /// The camera's frame: right, up and forward unit vectors, and the eye.
    let right: SIMD3<Float>, up: SIMD3<Float>, forward: SIMD3<Float>, eye: SIMD3<Double>
    /// Pixels per unit of `x / z` on the image plane.
    let focal: Float
    var depth: [Float]
    /// The nearest triangle per sample (`-1` for none) as a running number over all instances.
    var triangle: [Int32]
    /// The barycentric weights of the second and third vertex per sample.
    var weights: [SIMD2<Float>]
    /// Where each instance's triangles start in the running numbering.
    var instanceStarts: [Int] = []
    private var triangleCount = 0

    init(width: Int, height: Int, camera: ThumbnailCamera) {
        self.width = width
        self.height = height
        let f = (camera.target - camera.eye).normalized
        let r = f.cross(camera.up).normalized
        let u = r.cross(f)
        forward = SIMD3<Float>(f)
        right = SIMD3<Float>(r)
        up = SIMD3<Float>(u)
        eye = camera.eye
        focal = Float(Double(height) / 2 / tan(camera.fieldOfView * .pi / 360))
        depth = [Float](repeating: .infinity, count: width * height)
        triangle = [Int32](repeating: -1, count: width * height)
        weights = [SIMD2<Float>](repeating: .zero, count: width * height)
    }

    /// The camera-space position (x right, y up, z forward) of a world point.
    func view(_ world: SIMD3<Float>) -> SIMD3<Float> {
        SIMD3((world * right).sum(), (world * up).sum(), (world * forward).sum())
    }

    mutating func draw(_ mesh: Mesh, transform: Matrix4, instance: Int) {
        instanceStarts.append(triangleCount)
        defer { triangleCount += mesh.triangleCount }
        // World positions relative to the eye (kept small for float precision), then screen positions.
        let m = transform.columns
        let e = eye
        let c0 = SIMD3<Float>(SIMD3(m[0].x, m[0].y, m[0].z))
        let c1 = SIMD3<Float>(SIMD3(m[1].x, m[1].y, m[1].z))
        let c2 = SIMD3<Float>(SIMD3(m[2].x, m[2].y, m[2].z))
        let c3 = SIMD3<Float>(SIMD3(m[3].x - e.x, m[3].y - e.y, m[3].z - e.z))
        let halfWidth = Float(width) / 2
        let halfHeight = Float(height) / 2
        let screen = mesh.positions.map { p -> SIMD3<Float> in
            let v = view(c0 * p.x + c1 * p.y + c2 * p.z + c3)
            let z = max(v.z, 1e-6)
            return SIMD3(halfWidth + v.x * focal / z, halfHeight - v.y * focal / z, z)
        }
        let base = Int32(truncatingIfNeeded: triangleCount)
        mesh.indices.withUnsafeBufferPointer { indices in
            screen.withUnsafeBufferPointer { screen in
                for t in 0..<indices.count / 3 {
                    rasterize(
                        screen[Int(indices[3 * t])], screen[Int(indices[3 * t + 1])], screen[Int(indices[3 * t + 2])],
                        id: base + Int32(t))
                }
            }
        }
    }

    /// A screen coordinate as a pixel index within `0..<limit`.
    private static func pixel(_ value: Float, limit: Int) -> Int { Int(min(max(value, 0), Float(limit - 1))) }

    /// Scan-converts one triangle with incremental edge functions.
    private mutating func rasterize(_ a: SIMD3<Float>, _ b: SIMD3<Float>, _ c: SIMD3<Float>, id: Int32) {
        let area = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
        guard abs(area) > 1e-12, a.z > 1e-5, b.z > 1e-5, c.z > 1e-5 else { return }
        guard [a.x, a.y, b.x, b.y, c.x, c.y].allSatisfy(\.isFinite) else { return }
        // Clamped while still floats: a vertex just in front of the eye projects far outside the image.
        let minX = Self.pixel(min(a.x, b.x, c.x).rounded(.down), limit: width)
        let maxX = Self.pixel(max(a.x, b.x, c.x).rounded(.up), limit: width)
        let minY = Self.pixel(min(a.y, b.y, c.y).rounded(.down), limit: height)
        let maxY = Self.pixel(max(a.y, b.y, c.y).rounded(.up), limit: height)
        guard minX <= maxX, minY <= maxY else { return }
        let sign: Float = area > 0 ? 1 : -1
        let inverseArea = 1 / abs(area)
        // Edge function of the edge opposite each vertex, oriented positive inside.
        let e0 = (dx: (b.y - c.y) * sign, dy: (c.x - b.x) * sign)
        let e1 = (dx: (c.y - a.y) * sign, dy: (a.x - c.x) * sign)
        let e2 = (dx: (a.y - b.y) * sign, dy: (b.x - a.x) * sign)
        let px = Float(minX) + 0.5
        let py = Float(minY) + 0.5
        var row0 = ((b.x - px) * (c.y - py) - (b.y - py) * (c.x - px)) * sign
        var row1 = ((c.x - px) * (a.y - py) - (c.y - py) * (a.x - px)) * sign
        var row2 = ((a.x - px) * (b.y - py) - (a.y - py) * (b.x - px)) * sign
        let iza = 1 / a.z
        let izb = 1 / b.z
        let izc = 1 / c.z
        depth.withUnsafeMutableBufferPointer { depth in
            triangle.withUnsafeMutableBufferPointer { triangle in
                weights.withUnsafeMutableBufferPointer { weights in
                    for y in minY...maxY {
                        var w0 = row0
                        var w1 = row1
                        var w2 = row2
                        var index = y * width + minX
                        for _ in minX...maxX {
                            if w0 >= 0 && w1 >= 0 && w2 >= 0 {
                                let l0 = w0 * inverseArea * iza
                                let l1 = w1 * inverseArea * izb
                                let l2 = w2 * inverseArea * izc
                                let inverseDepth = l0 + l1 + l2
                                let z = 1 / inverseDepth
                                if z < depth[index] {
                                    depth[index] = z
                                    triangle[index] = id
                                    weights[index] = SIMD2(l1 * z, l2 * z)
                                }
                            }
                            w0 += e0.dx
                            w1 += e1.dx
                            w2 += e2.dx
                            index += 1
                        }
                        row0 += e0.dy
                        row1 += e1.dy
                        row2 += e2.dy
                    }
                }
            }
        }
    }
}
