import ARVisSupport

extension USDStageReader {
    /// A primvar read for one mesh: its values, how they spread over the mesh, and their indices.
    private struct Primvar {
        var values: [Double]
        var width: Int
        var interpolation: String
        var indices: [Int]?

        /// The element index for a face corner, or `nil` when out of range.
        func element(point: Int, corner: Int, face: Int) -> Int? {
            let raw: Int
            switch interpolation {
            case "faceVarying": raw = corner
            case "uniform": raw = face
            case "constant": raw = 0
            default: raw = point
            }
            let element = indices.map { raw < $0.count ? $0[raw] : -1 } ?? raw
            return element >= 0 && element < values.count / width ? element : nil
        }
    }

    private func primvar(_ attribute: String, width: Int, defaultInterpolation: String) -> Primvar? {
        guard let values = field(attribute, "default")?.components ?? field(attribute, "timeSamples")?.components,
            !values.isEmpty
        else { return nil }
        let indices = field(attribute + ":indices", "default")?.components.map { $0.map { Int(exactly: $0) ?? -1 } }
        return Primvar(
            values: values, width: width,
            interpolation: field(attribute, "interpolation")?.text ?? defaultInterpolation, indices: indices)
    }

    /// The name of the texture-coordinate primvar: the one the bound material reads, else `st`,
    /// else the first `texCoord2f[]` or `float2[]` primvar.
    private func uvPrimvar(_ path: String, binding: String?) -> String? {
        var names: [String] = []
        if let binding, let reader = texCoordReaderName(material: binding) { names.append(reader) }
        names += ["st", "st0", "UVMap", "uv"]
        for name in names where field(path + ".primvars:" + name, "default") != nil {
            return path + ".primvars:" + name
        }
        return layer.specs.keys.filter { $0.hasPrefix(path + ".primvars:") && !$0.hasSuffix(":indices") }.sorted().first
        {
            ["texCoord2f[]", "float2[]", "texCoord2d[]", "double2[]"].contains(field($0, "typeName")?.text ?? "")
        }
    }

    /// The meshes of a `Mesh` prim: one per material its faces use.
    mutating func meshes(_ path: String, binding: String?) throws(ModelError) -> [Int] {
        guard
            let points = field(path + ".points", "default")?.components
                ?? field(path + ".points", "timeSamples")?.components,
            let counts = field(path + ".faceVertexCounts", "default")?.components,
            let cornersRaw = field(path + ".faceVertexIndices", "default")?.components
        else {
            warnings.append("\(path): a mesh without points, faceVertexCounts or faceVertexIndices is not drawn")
            return []
        }
        guard points.count % 3 == 0, points.allSatisfy(\.isFinite) else {
            throw ModelError(.invalid, "points are not finite triples", location: path + ".points")
        }
        let pointCount = points.count / 3
        let corners = cornersRaw.map { Int(exactly: $0) ?? -1 }
        guard counts.allSatisfy({ $0 >= 0 && $0 <= 1_000_000 && $0.rounded() == $0 }) else {
            throw ModelError(
                .invalid, "faceVertexCounts are whole numbers from 0", location: path + ".faceVertexCounts")
        }
        guard counts.reduce(0, { $0 + Int($1) }) == corners.count else {
            throw ModelError(
                .invalid, "faceVertexCounts add up to a different number than faceVertexIndices holds",
                location: path + ".faceVertexCounts")
        }
        guard corners.allSatisfy({ $0 >= 0 && $0 < pointCount }) else {
            throw ModelError(
                .invalid, "faceVertexIndices name a point that does not exist", location: path + ".faceVertexIndices")
        }
        let normals =
            primvar(path + ".primvars:normals", width: 3, defaultInterpolation: "vertex")
            ?? primvar(path + ".normals", width: 3, defaultInterpolation: "vertex")
        let uvs = uvPrimvar(path, binding: binding).flatMap { primvar($0, width: 2, defaultInterpolation: "vertex") }
        let leftHanded = field(path + ".orientation", "default")?.text == "leftHanded"
        // Faces grouped by the material that draws them: GeomSubsets of the materialBind family first.
        let faceCount = counts.count
        var faceMaterial = [String?](repeating: binding, count: faceCount)
        for subset in childPrims(ofMesh: path) {
            guard let subsetBinding = materialBinding(subset),
                field(subset + ".familyName", "default")?.text ?? "materialBind" == "materialBind"
            else { continue }
            for face in field(subset + ".indices", "default")?.components ?? [] {
                if let face = Int(exactly: face), face >= 0, face < faceCount { faceMaterial[face] = subsetBinding }
            }
        }
        var groups: [String?] = []
        for material in faceMaterial where !groups.contains(material) { groups.append(material) }
        var result: [Int] = []
        for group in groups {
            var builder = MeshBuilder(points: points, normals: normals?.values, uvs: uvs?.values)
            var corner = 0
            for (face, count) in counts.enumerated() {
                let n = Int(count)
                defer { corner += n }
                guard faceMaterial[face] == group, n >= 3 else { continue }
                var ids: [UInt32] = []
                for k in 0..<n {
                    let c = corner + k
                    let point = corners[c]
                    ids.append(
                        builder.vertex(
                            point: point, normal: normals?.element(point: point, corner: c, face: face),
                            uv: uvs?.element(point: point, corner: c, face: face)))
                }
                for k in 1..<n - 1 {
                    builder.indices += leftHanded ? [ids[0], ids[k + 1], ids[k]] : [ids[0], ids[k], ids[k + 1]]
                }
                guard builder.indices.count / 3 <= limits.triangles else {
                    throw ModelError(.tooLarge, "the mesh has more than \(limits.triangles) triangles", location: path)
                }
            }
            let material = try group.flatMap { (path) throws(ModelError) in try self.material(at: path) }
            model.meshes.append(
                builder.mesh(name: String(path[path.index(after: path.lastIndex(of: "/")!)...]), material: material))
            result.append(model.meshes.count - 1)
        }
        return result
    }

    private func childPrims(ofMesh path: String) -> [String] {
        (field(path, "primChildren")?.strings ?? []).map { path + "/" + $0 }.filter {
            field($0, "typeName")?.text == "GeomSubset"
        }
    }
}

/// Collects a mesh's vertices, making one vertex per distinct (point, normal, uv) combination.
private struct MeshBuilder {
    let points: [Double]
    let normals: [Double]?
    let uvs: [Double]?
    var positions: [SIMD3<Float>] = []
    var normalValues: [SIMD3<Float>] = []
    var uvValues: [SIMD2<Float>] = []
    var indices: [UInt32] = []
    private var vertexOf: [SIMD3<Int32>: UInt32] = [:]

    init(points: [Double], normals: [Double]?, uvs: [Double]?) {
        self.points = points
        self.normals = normals
        self.uvs = uvs
    }

    mutating func vertex(point: Int, normal: Int?, uv: Int?) -> UInt32 {
        let key = SIMD3<Int32>(Int32(point), Int32(normal ?? -1), Int32(uv ?? -1))
        if let index = vertexOf[key] { return index }
        let index = UInt32(positions.count)
        positions.append(SIMD3(Float(points[3 * point]), Float(points[3 * point + 1]), Float(points[3 * point + 2])))
        if let normals {
            normalValues.append(
                normal.map { SIMD3(Float(normals[3 * $0]), Float(normals[3 * $0 + 1]), Float(normals[3 * $0 + 2])) }
                    ?? .zero)
        }
        if let uvs {
            // USD's st origin is the image's bottom-left corner; the model's uv origin its top-left.
            uvValues.append(uv.map { SIMD2(Float(uvs[2 * $0]), 1 - Float(uvs[2 * $0 + 1])) } ?? .zero)
        }
        vertexOf[key] = index
        return index
    }

    func mesh(name: String, material: Int?) -> Mesh {
        Mesh(
            name: name, positions: positions, normals: normalValues, uvs: uvValues, indices: indices, material: material
        )
    }
}
