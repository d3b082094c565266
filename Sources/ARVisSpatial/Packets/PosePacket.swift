/// ARVis's per-frame camera packet, 62 bytes: what a remote peer needs to turn a tap on the video
/// into a world ray, with a version and a checksum.
///
/// Layout (little-endian): version `UInt8` (1), flags `UInt8` (0), viewport width and height `UInt16`
/// points, frame id `UInt32`, timestamp `Float64` seconds, position 3 × `Float32` metres, orientation
/// quaternion x, y, z `Float32` (w ≥ 0 is implied: w = √(1 − x² − y² − z²)), intrinsics fx, fy, cx, cy
/// `Float32` in viewport points, CRC-32 of the 58 bytes before it.
public struct PosePacket: Sendable, Hashable {
    /// The version this reader writes and reads.
    public static let version: UInt8 = 1
    /// The packet's size in bytes.
    public static let byteCount = 62

    /// A sequence number for the frame.
    public var frameID: UInt32
    /// Capture time in seconds (any epoch the peers share).
    public var timestamp: Double
    /// Camera position in metres.
    public var position: SIMD3<Float>
    /// Camera orientation.
    public var orientation: Rotation
    /// Focal lengths and principal point in viewport points.
    public var intrinsics: SIMD4<Float>
    /// The frame's size in points.
    public var viewport: SIMD2<UInt16>

    /// Creates a packet.
    public init(frameID: UInt32, timestamp: Double, position: SIMD3<Float>, orientation: Rotation, intrinsics: SIMD4<Float>, viewport: SIMD2<UInt16>) {
        self.frameID = frameID
        self.timestamp = timestamp
        self.position = position
        self.orientation = orientation
        self.intrinsics = intrinsics
        self.viewport = viewport
    }

    /// The 62 bytes.
    public func encoded() -> [UInt8] {
        var writer = ByteWriter(capacity: Self.byteCount)
        writer.write(Self.version)
        writer.write(UInt8(0))
        writer.write(viewport.x)
        writer.write(viewport.y)
        writer.write(frameID)
        writer.write(timestamp)
        for value in [position.x, position.y, position.z] { writer.write(value) }
        // Store the quaternion with w ≥ 0 so w can be rebuilt from x, y, z.
        let sign: Double = orientation.w < 0 ? -1 : 1
        for value in [orientation.x, orientation.y, orientation.z] { writer.write(Float(sign * value)) }
        for value in [intrinsics.x, intrinsics.y, intrinsics.z, intrinsics.w] { writer.write(value) }
        writer.write(CRC32.checksum(writer.bytes[...]))
        return writer.bytes
    }

    /// Reads a packet.
    /// - Throws: ``SpatialError``: `wrongLength`, `unsupportedVersion`, `checksumMismatch` (a corrupt
    ///   packet), or `notFinite` (NaN, infinity, or an orientation that is not a unit quaternion).
    public init(decoding bytes: [UInt8]) throws(SpatialError) {
        guard bytes.count == Self.byteCount else {
            throw SpatialError(.wrongLength, "an ARVis pose packet is \(Self.byteCount) bytes; got \(bytes.count)")
        }
        guard bytes[0] == Self.version else {
            throw SpatialError(.unsupportedVersion, "ARVis pose packet version \(bytes[0]) is not supported (this reader knows version \(Self.version))")
        }
        var reader = ByteReader(bytes)
        reader.offset = Self.byteCount - 4
        let stored = reader.read(UInt32.self)
        let computed = CRC32.checksum(bytes[0..<(Self.byteCount - 4)])
        guard stored == computed else {
            throw SpatialError(.checksumMismatch, "ARVis pose packet checksum mismatch: the packet is corrupt")
        }
        reader.offset = 2
        let viewport = SIMD2(reader.read(UInt16.self), reader.read(UInt16.self))
        let frameID = reader.read(UInt32.self)
        let timestamp = reader.readDouble()
        let position = SIMD3(reader.readFloat(), reader.readFloat(), reader.readFloat())
        let q = SIMD3(Double(reader.readFloat()), Double(reader.readFloat()), Double(reader.readFloat()))
        let intrinsics = SIMD4(reader.readFloat(), reader.readFloat(), reader.readFloat(), reader.readFloat())
        let squared = q.dot(q)
        guard timestamp.isFinite, [position.x, position.y, position.z, intrinsics.x, intrinsics.y, intrinsics.z, intrinsics.w].allSatisfy(\.isFinite),
              squared.isFinite, squared <= 1 + 1e-5 else {
            throw SpatialError(.notFinite, "ARVis pose packet holds a NaN or infinite value or a non-unit orientation")
        }
        self.init(frameID: frameID, timestamp: timestamp, position: position,
                  orientation: Rotation(x: q.x, y: q.y, z: q.z, w: max(0, 1 - squared).squareRoot()),
                  intrinsics: intrinsics, viewport: viewport)
    }

    /// The camera the packet describes.
    public var camera: Camera {
        Camera(pose: Similarity(rotation: orientation, translation: Vec3(Double(position.x), Double(position.y), Double(position.z))),
               lens: .intrinsics(fx: Double(intrinsics.x), fy: Double(intrinsics.y), cx: Double(intrinsics.z), cy: Double(intrinsics.w)),
               viewport: Viewport(width: Double(viewport.x), height: Double(viewport.y)))
    }
}
