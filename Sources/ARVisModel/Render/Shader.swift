import ARVisGraphics
import ARVisSpatial
import Foundation

/// The shading pass of the thumbnail renderer: for every visible sample, the material's colour at
/// the interpolated texture coordinate, lit by a key and a fill light with a Blinn-Phong specular
/// term standing in for PBR's (Fresnel from metalness, lobe width from roughness).
struct Shader {
    private struct InstanceData {
        var mesh: Mesh
        var material: Material
        /// World normals of the vertices (empty when the mesh has none).
        var normals: [SIMD3<Float>]
        /// World positions relative to the eye, for face normals.
        var positions: [SIMD3<Float>]
    }

    private let instances: [InstanceData]
    /// The decoded textures: 8-bit RGBA, sampled bilinearly with repeat wrapping.
    private let pictures: [Int: RasterImage]
    private let keyLight: SIMD3<Float>, fillLight: SIMD3<Float>, toViewer: SIMD3<Float>

    private static let linear: [Float] = (0..<256).map { value in
        let c = Float(value) / 255
        return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
    }
    private static let encodeSteps = 4096
    private static let sRGB: [Float] = (0...encodeSteps).map { step in
        let c = Float(step) / Float(encodeSteps)
        return c <= 0.0031308 ? c * 12.92 : 1.055 * pow(c, 1 / 2.4) - 0.055
    }

    init(model: Model, instances: [MeshInstance], camera: ThumbnailCamera) {
        let e = camera.eye
        self.instances = instances.map { instance in
            let mesh = model.meshes[instance.mesh]
            let m = instance.transform
            let linearPart = Matrix4(columns: [m.columns[0], m.columns[1], m.columns[2], SIMD4(0, 0, 0, 1)])
            let normalMatrix =
                linearPart.inverse.map { inverse in
                    (0..<3).map { row in
                        SIMD3<Float>(Float(inverse[0, row]), Float(inverse[1, row]), Float(inverse[2, row]))
                    }
                }
                ?? [SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1)]
            let normals = mesh.normals.map { n -> SIMD3<Float> in
                let w = normalMatrix[0] * n.x + normalMatrix[1] * n.y + normalMatrix[2] * n.z
                let length = (w * w).sum().squareRoot()
                return length > 0 ? w / length : .zero
            }
            let c = m.columns
            let positions = mesh.positions.map { p -> SIMD3<Float> in
                let q = c[0] * Double(p.x) + c[1] * Double(p.y) + c[2] * Double(p.z) + c[3]
                return SIMD3<Float>(Float(q.x - e.x), Float(q.y - e.y), Float(q.z - e.z))
            }
            let material =
                mesh.material.map { model.materials[$0] }
                ?? Material(baseColorFactor: SIMD4(0.8, 0.8, 0.8, 1), metallicFactor: 0, roughnessFactor: 0.6)
            return InstanceData(mesh: mesh, material: material, normals: normals, positions: positions)
        }
        pictures =
            TexturePictures(
                self.instances.flatMap {
                    [$0.material.baseColorTexture, $0.material.emissiveTexture].compactMap { $0 }
                },
                of: model
            ).pictures
        let f = SIMD3<Float>((camera.target - camera.eye).normalized)
        let r = SIMD3<Float>((camera.target - camera.eye).normalized.cross(camera.up).normalized)
        let u = SIMD3<Float>(SIMD3<Double>(r).cross(SIMD3<Double>(f)))
        toViewer = -f
        keyLight = Self.normalize(-0.45 * r + 0.75 * u - 0.5 * f)
        fillLight = Self.normalize(0.7 * r - 0.1 * u - 0.7 * f)
    }

    private static func normalize(_ v: SIMD3<Float>) -> SIMD3<Float> {
        let length = (v * v).sum().squareRoot()
        return length > 0 ? v / length : SIMD3(0, 0, 1)
    }

    /// The premultiplied sRGB colour of triangle `id` (a running number over the instances, as the
    /// rasterizer numbers them) at the given barycentric weights.
    func color(ofTriangle id: Int, weights: SIMD2<Float>, starts: [Int]) -> SIMD4<Float> {
        // The instance whose range holds the triangle (ranges are sorted).
        var low = 0
        var high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= id { low = middle } else { high = middle - 1 }
        }
        return shade(instances[low], triangle: id - starts[low], weights: weights)
    }

    private func shade(_ data: InstanceData, triangle t: Int, weights: SIMD2<Float>) -> SIMD4<Float> {
        let mesh = data.mesh
        let material = data.material
        let i0 = Int(mesh.indices[3 * t])
        let i1 = Int(mesh.indices[3 * t + 1])
        let i2 = Int(mesh.indices[3 * t + 2])
        let w1 = weights.x
        let w2 = weights.y
        let w0 = 1 - w1 - w2
        var base = material.baseColorFactor
        var uv = SIMD2<Float>.zero
        if !mesh.uvs.isEmpty { uv = mesh.uvs[i0] * w0 + mesh.uvs[i1] * w1 + mesh.uvs[i2] * w2 }
        if let texture = material.baseColorTexture, !mesh.uvs.isEmpty, let picture = pictures[texture] {
            base *= sample(picture, uv)
        }
        if material.alphaMode == .mask { base.w = base.w >= material.alphaCutoff ? 1 : 0 }
        if material.alphaMode == .opaque { base.w = 1 }
        guard base.w > 0 else { return .zero }
        var normal: SIMD3<Float>
        if !data.normals.isEmpty {
            normal = Self.normalize(data.normals[i0] * w0 + data.normals[i1] * w1 + data.normals[i2] * w2)
        } else {
            let p0 = data.positions[i0]
            let a = data.positions[i1] - p0
            let b = data.positions[i2] - p0
            normal = Self.normalize(SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x))
        }
        if (normal * toViewer).sum() < 0 { normal = -normal }
        let metallic = min(max(material.metallicFactor, 0), 1)
        let roughness = min(max(material.roughnessFactor, 0.05), 1)
        let albedo = SIMD3(base.x, base.y, base.z)
        let f0 = SIMD3<Float>(repeating: 0.04) * (1 - metallic) + albedo * metallic
        let alpha = roughness * roughness
        let shininess = max(2 / max(alpha * alpha, 1e-4) - 2, 1)
        var color = albedo * (1 - metallic) * 0.22 + f0 * 0.2
        for (light, intensity) in [(keyLight, Float(0.95)), (fillLight, Float(0.4))] {
            let lambert = max((normal * light).sum(), 0)
            guard lambert > 0 else { continue }
            let half = Self.normalize(light + toViewer)
            let specular = pow(max((normal * half).sum(), 0), shininess) * (shininess + 8) / (8 * .pi)
            color += (albedo * (1 - metallic) + f0 * specular) * lambert * intensity
        }
        var emissive = material.emissiveFactor
        if let texture = material.emissiveTexture, !mesh.uvs.isEmpty, let picture = pictures[texture] {
            let e = sample(picture, uv)
            emissive *= SIMD3(e.x, e.y, e.z)
        }
        color += emissive
        let encoded = SIMD3(Self.encode(color.x), Self.encode(color.y), Self.encode(color.z))
        return SIMD4(encoded * base.w, base.w)
    }

    private static func encode(_ value: Float) -> Float {
        guard value.isFinite else { return 0 }
        let clamped = min(max(value, 0), 1)
        return sRGB[Int(clamped * Float(encodeSteps))]
    }

    /// Bilinear sample in linear light (alpha straight), repeat wrapping.
    private func sample(_ picture: RasterImage, _ uv: SIMD2<Float>) -> SIMD4<Float> {
        // Coordinates past Float's range (huge ones interpolated) have no place on the picture.
        guard uv.x.isFinite, uv.y.isFinite, abs(uv.x) < 1e7, abs(uv.y) < 1e7 else { return SIMD4(1, 1, 1, 1) }
        let x = (uv.x - uv.x.rounded(.down)) * Float(picture.width) - 0.5
        let y = (uv.y - uv.y.rounded(.down)) * Float(picture.height) - 0.5
        // After the guard the fractions lie in 0..<1, so x and y lie in −0.5..<size: both convert.
        let x0 = Int(x.rounded(.down))
        let y0 = Int(y.rounded(.down))
        let fx = x - Float(x0)
        let fy = y - Float(y0)
        func texel(_ px: Int, _ py: Int) -> SIMD4<Float> {
            let wx = (px % picture.width + picture.width) % picture.width
            let wy = (py % picture.height + picture.height) % picture.height
            let at = (wy * picture.width + wx) * 4
            return SIMD4(
                Self.linear[Int(picture.pixels[at])], Self.linear[Int(picture.pixels[at + 1])],
                Self.linear[Int(picture.pixels[at + 2])],
                Float(picture.pixels[at + 3]) / 255)
        }
        let top = texel(x0, y0) * (1 - fx) + texel(x0 + 1, y0) * fx
        let bottom = texel(x0, y0 + 1) * (1 - fx) + texel(x0 + 1, y0 + 1) * fx
        return top * (1 - fy) + bottom * fy
    }
}
