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

/// CRC-32 (IEEE), as zlib and PNG compute it, eight bytes at a time ("slicing by 8").
enum CRC32 {
    private static let tables: [[UInt32]] = {
        var tables = [[UInt32]](repeating: [UInt32](repeating: 0, count: 256), count: 8)
        for index in 0..<256 {
            var value = UInt32(index)
            for _ in 0..<8 { value = value & 1 != 0 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
            tables[0][index] = value
        }
        for index in 0..<256 {
            for slice in 1..<8 {
                tables[slice][index] = (tables[slice - 1][index] >> 8) ^ tables[0][Int(tables[slice - 1][index] & 0xFF)]
            }
        }
        return tables
    }()
    /// The eight tables one after another, in memory that lives as long as the process.
    private nonisolated(unsafe) static let flat: UnsafePointer<UInt32> = {
        let pointer = UnsafeMutablePointer<UInt32>.allocate(capacity: 8 * 256)
        pointer.initialize(from: tables.flatMap { $0 }, count: 8 * 256)
        return UnsafePointer(pointer)
    }()

    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        let table = flat
        do {
            var crc: UInt32 = 0xFFFF_FFFF
            var index = 0
            while index + 8 <= bytes.count {
                let low = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt32.self)) ^ crc
                let high = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: index + 4, as: UInt32.self))
                crc =
                    table[7 * 256 + Int(low & 0xFF)] ^ table[6 * 256 + Int((low >> 8) & 0xFF)]
                    ^ table[5 * 256 + Int((low >> 16) & 0xFF)] ^ table[4 * 256 + Int(low >> 24)]
                    ^ table[3 * 256 + Int(high & 0xFF)] ^ table[2 * 256 + Int((high >> 8) & 0xFF)]
                    ^ table[1 * 256 + Int((high >> 16) & 0xFF)] ^ table[Int(high >> 24)]
                index += 8
            }
            while index < bytes.count {
                crc = table[Int((crc ^ UInt32(bytes[index])) & 0xFF)] ^ (crc >> 8)
                index += 1
            }
            return crc ^ 0xFFFF_FFFF
        }
    }
}
