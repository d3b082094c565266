import ARVisSupport

/// Little-endian reads from a byte array that never go past its end: every read checks its range and
/// throws ``ModelError`` `truncated` naming the offset instead.
struct BinaryReader {
    let bytes: [UInt8]
    /// What the bytes are, for messages ("the crate file", "the GLB").
    let what: String
    var offset: Int

    init(_ bytes: [UInt8], what: String, offset: Int = 0) {
        self.bytes = bytes
        self.what = what
        self.offset = offset
    }

    /// Throws unless `count` bytes are there at `offset`.
    func require(_ count: Int, at offset: Int) throws(ModelError) {
        guard count >= 0, offset >= 0, offset <= bytes.count, count <= bytes.count - offset else {
            throw ModelError(
                .truncated, "\(what) ends before the \(count) bytes it announces at byte \(offset)",
                location: "byte \(offset)")
        }
    }

    /// A fixed-width integer or float at `offset`.
    func load<T: FixedWidthInteger>(_ type: T.Type, at offset: Int) throws(ModelError) -> T {
        try require(MemoryLayout<T>.size, at: offset)
        return bytes.withUnsafeBytes { T(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: T.self)) }
    }

    /// The next fixed-width integer, moving past it.
    mutating func read<T: FixedWidthInteger>(_ type: T.Type) throws(ModelError) -> T {
        let value = try load(type, at: offset)
        offset += MemoryLayout<T>.size
        return value
    }

    /// The next `count` bytes, moving past them.
    mutating func read(count: Int) throws(ModelError) -> ArraySlice<UInt8> {
        try require(count, at: offset)
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    /// A size read from the file, as an `Int` no larger than what is left after `offset`.
    func size(_ value: UInt64, elementSize: Int = 1, at offset: Int) throws(ModelError) -> Int {
        let left = UInt64(max(0, bytes.count - offset))
        guard elementSize > 0, value <= left / UInt64(elementSize) else {
            throw ModelError(
                .truncated,
                "\(what) announces \(value) items of \(elementSize) bytes at byte \(offset), more than the file holds",
                location: "byte \(offset)")
        }
        return Int(value)
    }

    /// `count` little-endian values of a trivial type (floats, SIMD vectors) starting at `offset`.
    func array<T>(of type: T.Type, count: Int, at offset: Int) throws(ModelError) -> [T] {
        let stride = MemoryLayout<T>.stride
        let (length, overflow) = count.multipliedReportingOverflow(by: stride)
        guard !overflow else {
            throw ModelError(
                .truncated, "\(what) announces too many items at byte \(offset)", location: "byte \(offset)")
        }
        try require(length, at: offset)
        return [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            bytes.withUnsafeBytes { source in
                UnsafeMutableRawBufferPointer(buffer).copyMemory(
                    from: UnsafeRawBufferPointer(rebasing: source[offset..<offset + length]))
            }
            initialized = count
        }
    }
}

/// Little-endian writes into a growing byte array.
struct BinaryWriter {
    var bytes: [UInt8] = []

    mutating func write<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func write(_ value: Double) { write(value.bitPattern) }

    mutating func write(_ value: Float) { write(value.bitPattern) }

    /// The raw bytes of trivial values (floats, SIMD vectors of floats) — little-endian on every
    /// platform Swift runs on.
    mutating func writeRaw<T>(_ values: [T]) {
        values.withUnsafeBytes { bytes.append(contentsOf: $0) }
    }

    mutating func pad(toMultipleOf alignment: Int, with byte: UInt8 = 0) {
        while bytes.count % alignment != 0 { bytes.append(byte) }
    }
}
