/// Why a Draco stream was refused: what is wrong, and the byte of the stream where it was found.
public struct DracoFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong, in a sentence.
    public let message: String
    /// The offset in the compressed stream where reading stopped.
    public let offset: Int

    init(_ message: String, at offset: Int) {
        self.message = message
        self.offset = offset
    }

    /// "byte N: message".
    public var description: String { "byte \(offset): \(message)" }
}

/// A cursor over a Draco stream: little-endian integers and floats, LEB128 varints, and regions of
/// bits read least significant bit first. Every read checks that its bytes are there first.
struct DracoBuffer {
    /// The whole stream.
    let bytes: [UInt8]
    /// The next byte to read.
    private(set) var position: Int

    init(_ bytes: [UInt8], position: Int = 0) {
        self.bytes = bytes
        self.position = position
    }

    /// The bytes not read yet.
    var remaining: Int { bytes.count - position }

    /// A failure at the current position.
    func failure(_ message: String) -> DracoFailure { DracoFailure(message, at: position) }

    /// Moves past `count` bytes, after checking they are there.
    mutating func skip(_ count: Int, _ what: @autoclosure () -> String) throws(DracoFailure) {
        guard count >= 0, count <= remaining else {
            throw failure("\(what()) takes \(count) bytes; \(remaining) are left")
        }
        position += count
    }

    /// The next `count` bytes.
    mutating func take(_ count: Int, _ what: @autoclosure () -> String) throws(DracoFailure) -> ArraySlice<UInt8> {
        let start = position
        try skip(count, what())
        return bytes[start..<position]
    }

    mutating func uint8(_ what: @autoclosure () -> String) throws(DracoFailure) -> UInt8 {
        try take(1, what()).first ?? 0
    }

    mutating func uint16(_ what: @autoclosure () -> String) throws(DracoFailure) -> UInt16 {
        UInt16(truncatingIfNeeded: try littleEndian(2, what()))
    }

    mutating func uint32(_ what: @autoclosure () -> String) throws(DracoFailure) -> UInt32 {
        UInt32(truncatingIfNeeded: try littleEndian(4, what()))
    }

    mutating func float32(_ what: @autoclosure () -> String) throws(DracoFailure) -> Float {
        Float(bitPattern: try uint32(what()))
    }

    /// An unsigned little-endian integer of `size` bytes (at most 8).
    private mutating func littleEndian(_ size: Int, _ what: @autoclosure () -> String) throws(DracoFailure) -> UInt64 {
        let slice = try take(size, what())
        var value: UInt64 = 0
        for (shift, byte) in slice.enumerated() { value |= UInt64(byte) << (8 * shift) }
        return value
    }

    /// A LEB128 varint of at most `bits` bits (32 or 64). Longer encodings, and bits beyond the
    /// width, are refused (Draco's encoder never writes them).
    mutating func varint(bits: Int, _ what: @autoclosure () -> String) throws(DracoFailure) -> UInt64 {
        let start = position
        var value: UInt64 = 0
        var shift = 0
        while true {
            let byte = try uint8(what())
            let payload = UInt64(byte & 0x7F)
            // The byte's bits must fit in what is left of the width.
            guard shift < bits, shift + 7 <= bits || payload >> (bits - shift) == 0 else {
                throw DracoFailure("\(what()) is a varint wider than \(bits) bits", at: start)
            }
            value |= payload << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
    }

    mutating func varUInt32(_ what: @autoclosure () -> String) throws(DracoFailure) -> UInt32 {
        UInt32(truncatingIfNeeded: try varint(bits: 32, what()))
    }

    /// A varint read as a count of things that each take at least `bytesEach` bytes of what is left,
    /// refused when the stream is too short to hold them (`bytesEach` 0: no such bound).
    mutating func count(_ what: @autoclosure () -> String, bytesEach: Int = 0) throws(DracoFailure) -> Int {
        let start = position
        let value = try varint(bits: 32, what())
        guard bytesEach == 0 || value <= UInt64(remaining / bytesEach) else {
            throw DracoFailure("\(what()) is \(value), more than the \(remaining) bytes left can hold", at: start)
        }
        return Int(value)
    }
}

/// Bits read least significant first, byte after byte, from a region of a `DracoBuffer`.
struct DracoBits {
    private let bytes: [UInt8]
    private let start: Int
    private let end: Int
    private var bit = 0

    /// A region starting at `buffer`'s position, of `length` bytes (to the stream's end when nil);
    /// `end(in:)` moves the buffer past the bits read.
    init(at buffer: DracoBuffer, length: Int? = nil) {
        bytes = buffer.bytes
        start = buffer.position
        let first = buffer.position
        end = length.map { min(buffer.bytes.count, first + $0) } ?? buffer.bytes.count
    }

    /// The next `count` bits (0 to 32) as a number, the first bit read its least significant.
    mutating func read(_ count: Int) throws(DracoFailure) -> UInt32 {
        guard count > 0 else { return 0 }
        guard count <= 32 else { throw DracoFailure("a bit field of \(count) bits (at most 32)", at: start + bit / 8) }
        guard start * 8 + bit + count <= end * 8 else {
            throw DracoFailure("the bit region ends before \(count) more bits", at: start + bit / 8)
        }
        var value: UInt32 = 0
        for index in 0..<count {
            let at = bit + index
            let byte = bytes[start + at / 8]
            value |= UInt32((byte >> (at % 8)) & 1) << index
        }
        bit += count
        return value
    }

    /// Moves `buffer` past the whole bytes these bits touched.
    func end(in buffer: inout DracoBuffer) throws(DracoFailure) {
        try buffer.skip((bit + 7) / 8, "the bit region")
    }
}
