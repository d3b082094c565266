import ARVisGraphics
import ARVisSupport

/// A primitive's triangles and attributes as its `KHR_draco_mesh_compression` stream holds them.
struct GLTFDracoPrimitive {
    /// The decoded stream.
    let mesh: DracoMesh
    /// The extension: the stream's unique id of each attribute the primitive names.
    let compression: GLTFDocument.DracoCompression
    /// The primitive, as errors name it.
    let location: String

    /// Attribute `semantic` as float vectors of `width` components (integers scaled to 0…1 or −1…1
    /// when `normalized`), or `nil` when the extension does not name it (the primitive's accessor is
    /// then read as usual).
    func vectors(_ semantic: String, width: Int, normalized: Bool) throws(ModelError) -> [Float]? {
        guard let id = compression.attributes[semantic] else { return nil }
        let place = location + ".extensions.KHR_draco_mesh_compression.attributes." + semantic
        guard let key = UInt32(exactly: id), let attribute = mesh.attributes[key] else {
            throw ModelError(.invalid, "the Draco stream has no attribute with the unique id \(id)", location: place)
        }
        guard attribute.components == width else {
            throw ModelError(
                .invalid, "the Draco attribute has \(attribute.components) components; \(width) were expected",
                location: place)
        }
        return attribute.floats(normalized: normalized)
    }
}

extension GLTFBuffers {
    /// The Draco stream of a primitive, decoded once per buffer view, within what the primitive's
    /// accessors say it holds: no more points than its POSITION accessor has elements and no more
    /// triangles than a third of its indices accessor's (as `KHR_draco_mesh_compression` has them
    /// agree), and no more values than the file's decoding budget has left; each primitive reading
    /// it is charged to that budget, as each accessor read is.
    func draco(_ compression: GLTFDocument.DracoCompression, of primitive: GLTFDocument.Primitive, location: String)
        throws(ModelError) -> GLTFDracoPrimitive
    {
        let place = location + ".extensions.KHR_draco_mesh_compression"
        guard let positions = primitive.attributes["POSITION"] else {
            throw ModelError(.invalid, "a Draco-compressed primitive has a POSITION accessor", location: location)
        }
        let points = try elementCount(positions, location: location + ".attributes.POSITION")
        let corners = try primitive.indices.map { index throws(ModelError) in
            try elementCount(index, location: location + ".indices")
        }
        let mesh: DracoMesh
        if let known = decompressed.meshes[compression.bufferView] {
            // Each primitive that reads the stream again takes its own arrays: charged as an accessor
            // read is (its triangles, and at most 8 numbers a point: POSITION, NORMAL, TEXCOORD_0).
            try decoded.charge(known.indices.count + 8 * known.pointCount, location: place)
            mesh = known
        } else {
            let stream = try viewBytes(compression.bufferView, location: place + ".bufferView")
            let limits = DracoLimits(
                maximumFaces: (corners ?? Self.elementLimit) / 3, maximumPoints: points,
                maximumValues: decoded.remaining)
            do {
                mesh = try DracoDecoder.decode(stream, limits: limits)
            } catch {
                throw ModelError(
                    .invalid, "the Draco stream is refused at byte \(error.offset): \(error.message)", location: place)
            }
            let values = mesh.attributes.values.reduce(mesh.indices.count) { $0 + $1.bytes.count / $1.dataType.size }
            try decoded.charge(values, location: place)
            try decompressed.budget.charge(
                mesh.attributes.values.reduce(mesh.indices.count * 4) { $0 + $1.bytes.count }, location: place)
            decompressed.meshes[compression.bufferView] = mesh
        }
        guard mesh.pointCount <= points, mesh.indices.count <= corners ?? Int.max else {
            throw ModelError(
                .invalid,
                "the Draco stream holds \(mesh.pointCount) points and \(mesh.indices.count / 3) triangles, more than the primitive's accessors say (\(points) positions\(corners.map { ", \($0) indices" } ?? ""))",
                location: place)
        }
        return GLTFDracoPrimitive(mesh: mesh, compression: compression, location: location)
    }
}

extension DracoAttribute {
    /// The values as floats: integers scaled to 0…1 (unsigned) or −1…1 (signed) when `normalized`,
    /// as glTF reads normalised accessors.
    func floats(normalized: Bool) -> [Float] {
        let size = dataType.size
        let count = bytes.count / size
        return bytes.withUnsafeBytes { raw in
            (0..<count).map { index -> Float in
                let at = index * size
                switch dataType {
                case .float32:
                    return Float(
                        bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt32.self)))
                case .float64:
                    return Float(
                        Double(bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt64.self)))
                    )
                case .int8: return Self.scaled(Int8(bitPattern: raw[at]), normalized)
                case .uint8, .bool: return Self.scaled(raw[at], normalized)
                case .int16:
                    return Self.scaled(
                        Int16(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: Int16.self)), normalized)
                case .uint16:
                    return Self.scaled(
                        UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt16.self)), normalized)
                case .int32:
                    return Self.scaled(
                        Int32(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: Int32.self)), normalized)
                case .uint32:
                    return Self.scaled(
                        UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt32.self)), normalized)
                case .int64:
                    return Self.scaled(
                        Int64(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: Int64.self)), normalized)
                case .uint64:
                    return Self.scaled(
                        UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt64.self)), normalized)
                }
            }
        }
    }

    /// An integer as a float, divided by its type's largest value when `normalized` (−1 at least).
    private static func scaled<Value: FixedWidthInteger>(_ value: Value, _ normalized: Bool) -> Float {
        guard normalized else { return Float(value) }
        return max(Float(Double(value) / Double(Value.max)), -1)
    }
}
