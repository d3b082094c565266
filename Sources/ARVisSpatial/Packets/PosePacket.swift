import ARVisSpec
public import ARVisSupport

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
    public init(
        frameID: UInt32, timestamp: Double, position: SIMD3<Float>, orientation: Rotation, intrinsics: SIMD4<Float>,
        viewport: SIMD2<UInt16>
    ) {
        self.frameID = frameID
        self.timestamp = timestamp
        self.position = position
        self.orientation = orientation
        self.intrinsics = intrinsics
        self.viewport = viewport
    }

    /// The 62 bytes.
    public func encoded() -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: Self.byteCount) { buffer, count in
            encode(into: UnsafeMutableRawBufferPointer(buffer))
            count = Self.byteCount
        }
    }

    /// Writes the 62 bytes into `buffer` (at least 62 bytes long) without allocating.
    public func encode(into buffer: UnsafeMutableRawBufferPointer) {
        precondition(buffer.count >= Self.byteCount, "an ARVis pose packet needs \(Self.byteCount) bytes")
        buffer.storeBytes(of: Self.version, toByteOffset: 0, as: UInt8.self)
        buffer.storeBytes(of: UInt8(0), toByteOffset: 1, as: UInt8.self)
        buffer.storeBytes(of: viewport.x.littleEndian, toByteOffset: 2, as: UInt16.self)
        buffer.storeBytes(of: viewport.y.littleEndian, toByteOffset: 4, as: UInt16.self)
        buffer.storeBytes(of: frameID.littleEndian, toByteOffset: 6, as: UInt32.self)
        buffer.storeBytes(of: timestamp.bitPattern.littleEndian, toByteOffset: 10, as: UInt64.self)
        // The quaternion is stored with w ≥ 0 so w can be rebuilt from x, y, z.
        let sign: Double = orientation.w < 0 ? -1 : 1
        @inline(__always) func store(_ value: Float, _ index: Int) {
            buffer.storeBytes(of: value.bitPattern.littleEndian, toByteOffset: 18 + 4 * index, as: UInt32.self)
        }
        store(position.x, 0)
        store(position.y, 1)
        store(position.z, 2)
        store(Float(sign * orientation.x), 3)
        store(Float(sign * orientation.y), 4)
        store(Float(sign * orientation.z), 5)
        store(intrinsics.x, 6)
        store(intrinsics.y, 7)
        store(intrinsics.z, 8)
        store(intrinsics.w, 9)
        let checksum = CRC32.checksum(UnsafeRawBufferPointer(rebasing: buffer[0..<(Self.byteCount - 4)]))
        buffer.storeBytes(of: checksum.littleEndian, toByteOffset: Self.byteCount - 4, as: UInt32.self)
    }

    /// Reads a packet.
    /// - Throws: ``SpatialError``: `wrongLength`, `unsupportedVersion`, `checksumMismatch` (a corrupt
    ///   packet), or `notFinite` (NaN, infinity, or an orientation that is not a unit quaternion).
    public init(decoding bytes: [UInt8]) throws(SpatialError) {
        let result = bytes.withUnsafeBytes { raw -> Result<PosePacket, SpatialError> in
            do throws(SpatialError) { return .success(try PosePacket(decoding: raw)) } catch { return .failure(error) }
        }
        self = try result.get()
    }

    /// Reads a packet from raw bytes without copying them.
    /// - Throws: ``SpatialError``: `wrongLength`, `unsupportedVersion`, `checksumMismatch` or `notFinite`.
    public init(decoding raw: UnsafeRawBufferPointer) throws(SpatialError) {
        guard raw.count == Self.byteCount else {
            throw SpatialError(.wrongLength, "an ARVis pose packet is \(Self.byteCount) bytes; got \(raw.count)")
        }
        guard raw[0] == Self.version else {
            throw SpatialError(
                .unsupportedVersion,
                "ARVis pose packet version \(raw[0]) is not supported (this reader knows version \(Self.version))")
        }
        let stored = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: Self.byteCount - 4, as: UInt32.self))
        guard stored == CRC32.checksum(UnsafeRawBufferPointer(rebasing: raw[0..<(Self.byteCount - 4)])) else {
            throw SpatialError(.checksumMismatch, "ARVis pose packet checksum mismatch: the packet is corrupt")
        }
        @inline(__always) func float(_ index: Int) -> Float {
            Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 18 + 4 * index, as: UInt32.self)))
        }
        let viewport = SIMD2(
            UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: 2, as: UInt16.self)),
            UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: 4, as: UInt16.self)))
        let frameID = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 6, as: UInt32.self))
        let timestamp = Double(bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 10, as: UInt64.self)))
        let position = SIMD3(float(0), float(1), float(2))
        let q = Vec3(Double(float(3)), Double(float(4)), Double(float(5)))
        let intrinsics = SIMD4(float(6), float(7), float(8), float(9))
        let squared = q.dot(q)
        guard timestamp.isFinite, position.x.isFinite, position.y.isFinite, position.z.isFinite,
            intrinsics.x.isFinite, intrinsics.y.isFinite, intrinsics.z.isFinite, intrinsics.w.isFinite,
            squared.isFinite, squared <= 1 + 1e-5
        else {
            throw SpatialError(.notFinite, "ARVis pose packet holds a NaN or infinite value or a non-unit orientation")
        }
        // x, y, z came from a unit quaternion; w makes it unit again (to Float precision).
        self.init(
            frameID: frameID, timestamp: timestamp, position: position,
            orientation: Rotation(unit: q.x, q.y, q.z, max(0, 1 - squared).squareRoot()),
            intrinsics: intrinsics, viewport: viewport)
    }

    /// The camera the packet describes.
    public var camera: Camera {
        Camera(
            pose: Similarity(
                rotation: orientation, translation: Vec3(Double(position.x), Double(position.y), Double(position.z))),
            lens: .intrinsics(
                fx: Double(intrinsics.x), fy: Double(intrinsics.y), cx: Double(intrinsics.z), cy: Double(intrinsics.w)),
            viewport: Viewport(width: Double(viewport.x), height: Double(viewport.y)))
    }
}
