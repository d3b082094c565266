/// The OpenTok AR sample's 32-byte frame metadata: eight little-endian Float32 — camera position,
/// SceneKit Euler angles (radians), zNear and vertical field of view (degrees).
///
/// Decoding checks the length and that every value is finite (the sample read eight floats from
/// whatever arrived and crashed on short metadata).
///
/// ```swift
/// let packet = OpenTokPosePacket(position: SIMD3(0, 1.5, 0), euler: .zero, zNear: 0.001, fieldOfView: 60)
/// let bytes = packet.encoded()                         // 32 bytes
/// let again = try OpenTokPosePacket(decoding: bytes)   // == packet
/// ```
public struct OpenTokPosePacket: Sendable, Hashable {
    /// The packet's size in bytes.
    public static let byteCount = 32
    /// The far plane the sample gives its reconstructed camera.
    public static let defaultFar = 1000.0

    /// Camera position in metres.
    public var position: SIMD3<Float>
    /// SceneKit `eulerAngles`: pitch (x), yaw (y), roll (z), radians.
    public var euler: SIMD3<Float>
    /// Near clipping distance in metres.
    public var zNear: Float
    /// Vertical field of view in degrees.
    public var fieldOfView: Float

    /// Creates a packet.
    public init(position: SIMD3<Float>, euler: SIMD3<Float>, zNear: Float, fieldOfView: Float) {
        self.position = position
        self.euler = euler
        self.zNear = zNear
        self.fieldOfView = fieldOfView
    }

    /// The 32 bytes.
    public func encoded() -> [UInt8] {
        var writer = ByteWriter(capacity: Self.byteCount)
        for value in [position.x, position.y, position.z, euler.x, euler.y, euler.z, zNear, fieldOfView] { writer.write(value) }
        return writer.bytes
    }

    /// Reads a packet.
    /// - Throws: ``SpatialError`` `wrongLength` unless there are exactly 32 bytes, `notFinite` for NaN or
    ///   infinite values.
    public init(decoding bytes: [UInt8]) throws(SpatialError) {
        guard bytes.count == Self.byteCount else {
            throw SpatialError(.wrongLength, "an OpenTok pose packet is \(Self.byteCount) bytes; got \(bytes.count)")
        }
        var reader = ByteReader(bytes)
        let values = (0..<8).map { _ in reader.readFloat() }
        guard values.allSatisfy(\.isFinite) else {
            throw SpatialError(.notFinite, "an OpenTok pose packet holds a NaN or infinite value")
        }
        self.init(position: SIMD3(values[0], values[1], values[2]), euler: SIMD3(values[3], values[4], values[5]),
                  zNear: values[6], fieldOfView: values[7])
    }

    /// The camera the packet describes, seen in `viewport`.
    public func camera(viewport: Viewport) -> Camera {
        let pose = Similarity(rotation: Rotation(sceneKitEuler: Vec3(Double(euler.x), Double(euler.y), Double(euler.z))),
                              translation: Vec3(Double(position.x), Double(position.y), Double(position.z)))
        return Camera(pose: pose, lens: .verticalFieldOfView(degrees: Double(fieldOfView)), viewport: viewport,
                      near: Double(zNear), far: Self.defaultFar)
    }
}
