import ARVisGraphics
import ARVisSpatial

@testable import ARVisModel

/// Models built in code for the tests: nothing is read from disk.
enum ModelFixtures {
    /// A 2×2 PNG: red, green, blue, white.
    static let texture: Texture = {
        let pixels: [Float] = [1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1, 1, 1, 1, 1]
        let png = pixels.withUnsafeBufferPointer { PNGEncoder.encode(width: 2, height: 2, premultiplied: $0) }
        return Texture(name: "tiles", data: png, format: .png)
    }()

    /// A unit cube centred on the origin: 24 vertices (flat normals), 12 triangles, texture coordinates.
    static func cube(material: Int? = 0) -> Mesh {
        var positions: [SIMD3<Float>] = []
        var normals: [SIMD3<Float>] = []
        var uvs: [SIMD2<Float>] = []
        var indices: [UInt32] = []
        let faces: [(SIMD3<Float>, SIMD3<Float>, SIMD3<Float>)] = [
            (SIMD3(0, 0, 1), SIMD3(1, 0, 0), SIMD3(0, 1, 0)), (SIMD3(0, 0, -1), SIMD3(-1, 0, 0), SIMD3(0, 1, 0)),
            (SIMD3(1, 0, 0), SIMD3(0, 0, -1), SIMD3(0, 1, 0)), (SIMD3(-1, 0, 0), SIMD3(0, 0, 1), SIMD3(0, 1, 0)),
            (SIMD3(0, 1, 0), SIMD3(1, 0, 0), SIMD3(0, 0, -1)), (SIMD3(0, -1, 0), SIMD3(1, 0, 0), SIMD3(0, 0, 1)),
        ]
        for (normal, u, v) in faces {
            let start = UInt32(positions.count)
            for (s, t) in [(Float(-1), Float(-1)), (1, -1), (1, 1), (-1, 1)] {
                positions.append((normal + u * s + v * t) * 0.5)
                normals.append(normal)
                uvs.append(SIMD2((s + 1) / 2, (1 - t) / 2))
            }
            indices += [start, start + 1, start + 2, start, start + 2, start + 3]
        }
        return Mesh(
            name: "Cube", positions: positions, normals: normals, uvs: uvs, indices: indices, material: material)
    }

    /// A hierarchy: a root turned 90° about Y and moved up 1 m, drawing the textured cube; a child
    /// scaled by 2 and moved along +X drawing it again with a plain material.
    static func hierarchy() -> Model {
        let turn = Matrix4(columns: [SIMD4(0, 0, -1, 0), SIMD4(0, 1, 0, 0), SIMD4(1, 0, 0, 0), SIMD4(0, 1, 0, 1)])
        let child = Matrix4(columns: [SIMD4(2, 0, 0, 0), SIMD4(0, 2, 0, 0), SIMD4(0, 0, 2, 0), SIMD4(3, 0, 0, 1)])
        return Model(
            nodes: [
                Node(name: "Root", transform: turn, children: [1], meshes: [0]),
                Node(name: "Child", transform: child, meshes: [1]),
            ],
            roots: [0],
            meshes: [cube(material: 0), cube(material: 1)],
            materials: [
                Material(
                    name: "Tiles", baseColorTexture: 0, metallicFactor: 0, roughnessFactor: 0.5, doubleSided: true),
                Material(
                    name: "Plain", baseColorFactor: SIMD4(0.2, 0.4, 0.6, 0.5), metallicFactor: 0.3,
                    roughnessFactor: 0.8,
                    emissiveFactor: SIMD3(0.1, 0, 0), alphaMode: .blend),
            ],
            textures: [texture])
    }
}
