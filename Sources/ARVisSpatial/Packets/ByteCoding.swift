/// Little-endian reading and writing of fixed-size numbers in byte arrays.
struct ByteWriter {
    var bytes: [UInt8] = []

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    mutating func write<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func write(_ value: Float) { write(value.bitPattern) }
    mutating func write(_ value: Double) { write(value.bitPattern) }
}

struct ByteReader {
    let bytes: [UInt8]
    var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Reads an integer; the caller has checked the length.
    mutating func read<T: FixedWidthInteger>(_: T.Type) -> T {
        var value: T = 0
        for index in 0..<MemoryLayout<T>.size { value |= T(truncatingIfNeeded: bytes[offset + index]) << (8 * index) }
        offset += MemoryLayout<T>.size
        return value
    }

    mutating func readFloat() -> Float { Float(bitPattern: read(UInt32.self)) }
    mutating func readDouble() -> Double { Double(bitPattern: read(UInt64.self)) }
}

/// CRC-32 (IEEE), as zlib and PNG compute it.
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index -> UInt32 in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 != 0 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}
