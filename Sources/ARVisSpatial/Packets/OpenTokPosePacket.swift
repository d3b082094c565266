import ARVisSpec
public import ARVisSupport

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
        [UInt8](unsafeUninitializedCapacity: Self.byteCount) { buffer, count in
            encode(into: UnsafeMutableRawBufferPointer(buffer))
            count = Self.byteCount
        }
    }

    /// Writes the 32 bytes into `buffer` (at least 32 bytes long) without allocating, as a video
    /// pipeline attaches metadata to each frame.
    public func encode(into buffer: UnsafeMutableRawBufferPointer) {
        precondition(buffer.count >= Self.byteCount, "an OpenTok pose packet needs \(Self.byteCount) bytes")
        let values = [position.x, position.y, position.z, euler.x, euler.y, euler.z, zNear, fieldOfView]
        for index in 0..<8 {
            buffer.storeBytes(of: values[index].bitPattern.littleEndian, toByteOffset: index * 4, as: UInt32.self)
        }
    }

    /// Reads a packet.
    /// - Throws: ``SpatialError`` `wrongLength` unless there are exactly 32 bytes, `notFinite` for NaN or
    ///   infinite values.
    public init(decoding bytes: [UInt8]) throws(SpatialError) {
        let result = bytes.withUnsafeBytes { raw -> Result<OpenTokPosePacket, SpatialError> in
            do throws(SpatialError) { return .success(try OpenTokPosePacket(decoding: raw)) } catch {
                return .failure(error)
            }
        }
        self = try result.get()
    }

    /// Reads a packet from raw bytes without copying them.
    /// - Throws: ``SpatialError`` `wrongLength` unless there are exactly 32 bytes, `notFinite` for NaN or
    ///   infinite values.
    public init(decoding raw: UnsafeRawBufferPointer) throws(SpatialError) {
        guard raw.count == Self.byteCount else {
            throw SpatialError(.wrongLength, "an OpenTok pose packet is \(Self.byteCount) bytes; got \(raw.count)")
        }
        @inline(__always) func float(_ index: Int) -> Float {
            Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self)))
        }
        let (x, y, z, pitch, yaw, roll, near, fov) = (
            float(0), float(1), float(2), float(3), float(4), float(5), float(6), float(7)
        )
        guard x.isFinite, y.isFinite, z.isFinite, pitch.isFinite, yaw.isFinite, roll.isFinite, near.isFinite,
            fov.isFinite
        else {
            throw SpatialError(.notFinite, "an OpenTok pose packet holds a NaN or infinite value")
        }
        self.init(position: SIMD3(x, y, z), euler: SIMD3(pitch, yaw, roll), zNear: near, fieldOfView: fov)
    }

    /// The camera the packet describes, seen in `viewport`.
    public func camera(viewport: Viewport) -> Camera {
        let pose = Similarity(
            rotation: Rotation(sceneKitEuler: Vec3(Double(euler.x), Double(euler.y), Double(euler.z))),
            translation: Vec3(Double(position.x), Double(position.y), Double(position.z)))
        return Camera(
            pose: pose, lens: .verticalFieldOfView(degrees: Double(fieldOfView)), viewport: viewport,
            near: Double(zNear), far: Self.defaultFar)
    }
}
