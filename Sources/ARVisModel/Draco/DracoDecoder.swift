/// The decoder of Draco's mesh streams (bitstream 2.2, what `KHR_draco_mesh_compression` carries).
///
/// Every stream is outside input: each count is checked against the limits and against the bytes
/// left before anything is allocated for it, and a damaged stream is refused with the byte where
/// reading stopped.
public enum DracoDecoder {
    /// The mesh in `stream`, within `limits`.
    /// - Throws: ``DracoFailure`` for a stream that is damaged, of another version, or over the limits.
    public static func decode(_ stream: [UInt8], limits: DracoLimits) throws(DracoFailure) -> DracoMesh {
        var buffer = DracoBuffer(stream)
        let method = try readHeader(&buffer)
        let connectivity: DracoConnectivity
        if method == 0 {
            connectivity = try DracoConnectivity.sequential(reading: &buffer, limits: limits)
        } else {
            let mesh = try DracoEdgebreaker.decode(reading: &buffer, limits: limits)
            connectivity = DracoConnectivity(
                indices: mesh.cornerPoints.map { UInt32(bitPattern: $0) }, pointCount: mesh.pointCount,
                edgebreaker: mesh)
        }
        let attributes = try DracoAttributeSection.decode(&buffer, connectivity: connectivity, limits: limits)
        return DracoMesh(indices: connectivity.indices, pointCount: connectivity.pointCount, attributes: attributes)
    }

    /// Reads the header and skips the metadata; returns the connectivity method (0 sequential,
    /// 1 edgebreaker).
    static func readHeader(_ buffer: inout DracoBuffer) throws(DracoFailure) -> UInt8 {
        guard Array(try buffer.take(5, "the header")) == Array("DRACO".utf8) else {
            throw DracoFailure("not a Draco stream (it does not start with DRACO)", at: 0)
        }
        let major = try buffer.uint8("the major version")
        let minor = try buffer.uint8("the minor version")
        guard major == 2, minor == 2 else {
            throw DracoFailure("bitstream \(major).\(minor); KHR_draco_mesh_compression carries 2.2", at: 5)
        }
        let geometry = try buffer.uint8("the geometry type")
        guard geometry == 1 else { throw DracoFailure("geometry type \(geometry): a point cloud, not a mesh", at: 7) }
        let method = try buffer.uint8("the connectivity method")
        guard method <= 1 else {
            throw DracoFailure("connectivity method \(method) (0 sequential, 1 edgebreaker)", at: 8)
        }
        let flags = try buffer.uint16("the flags")
        if flags & 0x8000 != 0 { try skipGeometryMetadata(&buffer) }
        return method
    }

    /// Skips the metadata of the attributes and of the mesh (`metadata/metadata_decoder.cc`).
    private static func skipGeometryMetadata(_ buffer: inout DracoBuffer) throws(DracoFailure) {
        let attributes = try buffer.count("the attributes' metadata count", bytesEach: 2)
        for _ in 0..<attributes {
            _ = try buffer.varUInt32("an attribute's id in the metadata")
            try skipMetadata(&buffer, depth: 0)
        }
        try skipMetadata(&buffer, depth: 0)
    }

    private static func skipMetadata(_ buffer: inout DracoBuffer, depth: Int) throws(DracoFailure) {
        guard depth < 32 else { throw buffer.failure("metadata nested deeper than 32") }
        let entries = try buffer.count("the metadata's entry count", bytesEach: 2)
        for _ in 0..<entries {
            try buffer.skip(Int(try buffer.uint8("a metadata name's length")), "a metadata name")
            let size = try buffer.count("a metadata value's size")
            guard size > 0 else { throw buffer.failure("a metadata value of 0 bytes") }
            try buffer.skip(size, "a metadata value")
        }
        let children = try buffer.count("the metadata's child count", bytesEach: 2)
        for _ in 0..<children {
            try buffer.skip(Int(try buffer.uint8("a metadata name's length")), "a metadata name")
            try skipMetadata(&buffer, depth: depth + 1)
        }
    }
}

/// A mesh's triangles, and how each attribute decoder's values map to points.
struct DracoConnectivity {
    /// Three point indices per triangle.
    var indices: [UInt32]
    /// How many points there are.
    var pointCount: Int
    /// The edgebreaker tables, nil for sequential connectivity (values in point order).
    var edgebreaker: DracoEdgebreaker?

    /// Sequential connectivity (`compression/mesh/mesh_sequential_decoder.cc`): the counts, then the
    /// indices raw or as coded differences.
    static func sequential(reading buffer: inout DracoBuffer, limits: DracoLimits) throws(DracoFailure) -> Self {
        let faces = try buffer.count("the triangle count")
        let points = try buffer.count("the point count")
        guard faces <= limits.maximumFaces else {
            throw buffer.failure("\(faces) triangles, over the limit of \(limits.maximumFaces)")
        }
        guard points <= limits.maximumPoints else {
            throw buffer.failure("\(points) points, over the limit of \(limits.maximumPoints)")
        }
        let method = try buffer.uint8("the index coding")
        let indices: [UInt32]
        if method == 0 {
            indices = try codedIndices(reading: &buffer, count: 3 * faces)
        } else {
            indices = try rawIndices(reading: &buffer, count: 3 * faces, points: points)
        }
        if let outside = indices.first(where: { Int($0) >= points }) {
            throw buffer.failure("a triangle names point \(outside) of \(points)")
        }
        return DracoConnectivity(indices: indices, pointCount: points, edgebreaker: nil)
    }

    /// Indices as differences from the previous one, sign in the lowest bit.
    private static func codedIndices(reading buffer: inout DracoBuffer, count: Int) throws(DracoFailure) -> [UInt32] {
        let symbols = try DracoSymbols.decode(count: count, components: 1, from: &buffer)
        var indices = [UInt32]()
        indices.reserveCapacity(count)
        var last: Int64 = 0
        for symbol in symbols {
            let magnitude = Int64(symbol >> 1)
            last += symbol & 1 == 1 ? -magnitude : magnitude
            guard (0...Int64(UInt32.max)).contains(last) else { throw buffer.failure("coded indices leaving 0…2³²−1") }
            indices.append(UInt32(last))
        }
        return indices
    }

    /// Indices of the narrowest width that holds `points` points.
    private static func rawIndices(reading buffer: inout DracoBuffer, count: Int, points: Int) throws(DracoFailure)
        -> [UInt32]
    {
        let width = points < 256 ? 1 : points < 65_536 ? 2 : points < 1 << 21 ? 0 : 4
        guard count <= buffer.remaining / max(width, 1) else {
            throw buffer.failure("\(count / 3) triangles do not fit in the \(buffer.remaining) bytes left")
        }
        var indices = [UInt32]()
        indices.reserveCapacity(count)
        for _ in 0..<count {
            switch width {
            case 1: indices.append(UInt32(try buffer.uint8("an index")))
            case 2: indices.append(UInt32(try buffer.uint16("an index")))
            case 0: indices.append(try buffer.varUInt32("an index"))
            default: indices.append(try buffer.uint32("an index"))
            }
        }
        return indices
    }
}
