/// A triangle mesh decoded from a Draco stream: its triangles as point indices, and each attribute's
/// values per point, in the attribute's own data type (little-endian bytes, as a glTF accessor holds
/// them).
public struct DracoMesh: Sendable {
    /// Three point indices per triangle, in the stream's order.
    public var indices: [UInt32]
    /// How many points the attributes have values for.
    public var pointCount: Int
    /// The attributes, by the unique id `KHR_draco_mesh_compression` names them with.
    public var attributes: [UInt32: DracoAttribute]
}

/// One attribute of a decoded Draco mesh.
public struct DracoAttribute: Sendable {
    /// What the attribute is, as Draco names it (0 position, 1 normal, 2 colour, 3 texture
    /// coordinate, 4 generic; 5 to 8 in Draco's transcoder builds).
    public var kind: UInt8
    /// The type of each component.
    public var dataType: DracoDataType
    /// Components per point.
    public var components: Int
    /// Whether integer components are normalised.
    public var normalized: Bool
    /// `pointCount × components` values of `dataType`, little-endian.
    public var bytes: [UInt8]
}

/// The component types of Draco's attributes (`core/draco_types.h`).
public enum DracoDataType: UInt8, Sendable {
    case int8 = 1
    case uint8, int16, uint16, int32, uint32, int64, uint64, float32, float64, bool

    /// Bytes per component.
    public var size: Int {
        switch self {
        case .int8, .uint8, .bool: 1
        case .int16, .uint16: 2
        case .int32, .uint32, .float32: 4
        case .int64, .uint64, .float64: 8
        }
    }
}

/// Bounds on a decoded mesh, set before anything is allocated: what the glTF accessors that take the
/// mesh say it holds, and a ceiling for any stream.
public struct DracoLimits: Sendable {
    /// The most triangles or points any limits allow, whatever is asked: every corner and point
    /// index of the decoder fits in 32 bits.
    public static let ceiling = Int(Int32.max) / 3

    /// The most triangles the stream may hold.
    public let maximumFaces: Int
    /// The most points the stream may hold.
    public let maximumPoints: Int
    /// The most attribute components, over every attribute of the stream (a few bytes of entropy-coded
    /// data can stand for millions of values).
    public let maximumValues: Int

    /// Limits of `maximumFaces` triangles, `maximumPoints` points (each at most ``ceiling``) and
    /// `maximumValues` attribute components (by default 16 for each point).
    public init(maximumFaces: Int, maximumPoints: Int, maximumValues: Int? = nil) {
        self.maximumFaces = min(maximumFaces, Self.ceiling)
        self.maximumPoints = min(maximumPoints, Self.ceiling)
        self.maximumValues = maximumValues ?? self.maximumPoints * 16
    }
}
