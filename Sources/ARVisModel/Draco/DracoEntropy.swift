/// Draco's rANS decoder of symbols: a probability table, then a stream of bytes read from its end
/// (`compression/entropy/rans_symbol_decoder.h` and `ans.h` in Draco).
struct RAnsSymbolDecoder {
    private let precisionBits: UInt32
    private let lowerBound: UInt32
    private let probabilities: [UInt32]
    private let cumulative: [UInt32]
    /// The symbol of each slot of the precision's range.
    private let lookup: [UInt32]
    private let data: ArraySlice<UInt8>
    private var offset: Int
    private var state: UInt32

    /// Reads the table and the coded bytes of symbols of at most `symbolBits` bits; `buffer` ends
    /// after them.
    init(reading buffer: inout DracoBuffer, symbolBits: Int) throws(DracoFailure) {
        precisionBits = UInt32(min(max(3 * symbolBits / 2, 12), 20))
        let precision = UInt32(1) << precisionBits
        lowerBound = 4 * precision
        probabilities = try Self.probabilities(reading: &buffer)
        guard !probabilities.isEmpty else { throw buffer.failure("a rANS table with no symbols") }
        (cumulative, lookup) = try Self.tables(probabilities, precision: precision, buffer: buffer)
        let start = buffer.position
        let size = try buffer.varint(bits: 64, "the rANS stream's size")
        guard size >= 1, size <= UInt64(buffer.remaining) else {
            throw DracoFailure("a rANS stream of \(size) bytes, \(buffer.remaining) left", at: start)
        }
        data = try buffer.take(Int(size), "the rANS stream")
        (offset, state) = try Self.initialState(data, lowerBound: lowerBound, at: start)
    }

    /// The probability of each symbol, run-length coded for zeros.
    private static func probabilities(reading buffer: inout DracoBuffer) throws(DracoFailure) -> [UInt32] {
        // Each entry takes at least a byte; a run of zeros 64 entries for a byte.
        let count = try buffer.count("the rANS table's symbol count")
        guard count / 64 <= buffer.remaining else {
            throw buffer.failure("a rANS table of \(count) symbols in \(buffer.remaining) bytes")
        }
        var probabilities = [UInt32](repeating: 0, count: count)
        var index = 0
        while index < count {
            let first = try buffer.uint8("a rANS probability")
            let extra = Int(first & 3)
            if extra == 3 {
                let run = Int(first >> 2)
                guard index + run < count else {
                    throw buffer.failure("a run of zero probabilities past the table's end")
                }
                index += run + 1
                continue
            }
            var probability = UInt32(first >> 2)
            for byte in 0..<extra {
                probability |= UInt32(try buffer.uint8("a rANS probability")) << (8 * (byte + 1) - 2)
            }
            probabilities[index] = probability
            index += 1
        }
        return probabilities
    }

    /// The cumulative probabilities and the slot → symbol table; the probabilities must add up to
    /// the precision exactly.
    private static func tables(_ probabilities: [UInt32], precision: UInt32, buffer: DracoBuffer)
        throws(DracoFailure) -> ([UInt32], [UInt32])
    {
        var cumulative = [UInt32](repeating: 0, count: probabilities.count)
        var lookup = [UInt32](repeating: 0, count: Int(precision))
        var sum: UInt64 = 0
        for (symbol, probability) in probabilities.enumerated() {
            cumulative[symbol] = UInt32(sum)
            guard sum + UInt64(probability) <= UInt64(precision) else {
                throw buffer.failure("rANS probabilities adding up past \(precision)")
            }
            for slot in Int(sum)..<Int(sum) + Int(probability) { lookup[slot] = UInt32(symbol) }
            sum += UInt64(probability)
        }
        guard sum == UInt64(precision) else {
            throw buffer.failure("rANS probabilities adding up to \(sum), not \(precision)")
        }
        return (cumulative, lookup)
    }

    /// The state in the stream's last one to four bytes (their top two bits say how many), and the
    /// offset of the bytes before them.
    private static func initialState(_ data: ArraySlice<UInt8>, lowerBound: UInt32, at start: Int)
        throws(DracoFailure) -> (Int, UInt32)
    {
        guard let last = data.last else { throw DracoFailure("an empty rANS stream", at: start) }
        let length = Int(last >> 6) + 1
        guard data.count >= length else { throw DracoFailure("a rANS stream shorter than its state", at: start) }
        var value: UInt32 = 0
        for (shift, byte) in data.suffix(length).enumerated() { value |= UInt32(byte) << (8 * shift) }
        value &= (UInt32(1) << (8 * UInt32(length) - 2)) &- 1
        let state = value &+ lowerBound
        guard state < lowerBound &* 256 else { throw DracoFailure("a rANS state out of range", at: start) }
        return (data.count - length, state)
    }

    /// The next symbol. A damaged stream decodes to wrong symbols, never outside the table.
    mutating func next() -> UInt32 {
        while state < lowerBound, offset > 0 {
            offset -= 1
            state = state &* 256 &+ UInt32(data[data.startIndex + offset])
        }
        let quotient = state >> precisionBits
        let remainder = state & ((UInt32(1) << precisionBits) - 1)
        let symbol = lookup[Int(remainder)]
        state = quotient &* probabilities[Int(symbol)] &+ remainder &- cumulative[Int(symbol)]
        return symbol
    }
}

/// Draco's coded runs of unsigned values (`compression/entropy/symbol_decoding.cc`).
enum DracoSymbols {
    /// `count` values of `components` components each (`count` counts components): tagged (a rANS
    /// coded bit length per value, then its components' raw bits) or raw (each a rANS symbol).
    /// The caller bounds `count` before asking.
    static func decode(count: Int, components: Int, from buffer: inout DracoBuffer) throws(DracoFailure) -> [UInt32] {
        guard count > 0 else { return [] }
        guard components > 0, count % components == 0 else {
            throw buffer.failure("\(count) values are not whole elements of \(components) components")
        }
        let scheme = try buffer.uint8("the symbols' coding")
        switch scheme {
        case 0: return try tagged(count: count, components: components, from: &buffer)
        case 1:
            let bits = Int(try buffer.uint8("the symbols' largest bit length"))
            guard (1...18).contains(bits) else { throw buffer.failure("a symbol bit length of \(bits) (1 to 18)") }
            var decoder = try RAnsSymbolDecoder(reading: &buffer, symbolBits: bits)
            return (0..<count).map { _ in decoder.next() }
        default: throw buffer.failure("symbol coding \(scheme) (0 tagged, 1 raw)")
        }
    }

    private static func tagged(count: Int, components: Int, from buffer: inout DracoBuffer) throws(DracoFailure)
        -> [UInt32]
    {
        var tags = try RAnsSymbolDecoder(reading: &buffer, symbolBits: 5)
        var bits = DracoBits(at: buffer)
        var values = [UInt32]()
        values.reserveCapacity(count)
        for _ in 0..<(count / components) {
            let length = Int(tags.next())
            for _ in 0..<components { values.append(try bits.read(length)) }
        }
        try bits.end(in: &buffer)
        return values
    }
}

/// Draco's rANS coder of single bits with a fixed probability
/// (`compression/bit_coders/rans_bit_decoder.cc`).
struct RAnsBitDecoder {
    private static let lowerBound: UInt32 = 4096
    private let one: UInt32
    private let data: ArraySlice<UInt8>
    private var offset: Int
    private var state: UInt32

    /// Reads the probability and the coded bytes; `buffer` ends after them.
    init(reading buffer: inout DracoBuffer) throws(DracoFailure) {
        let zero = try buffer.uint8("the bit coder's probability of 0")
        one = UInt32(UInt8(truncatingIfNeeded: 256 - Int(zero)))
        let start = buffer.position
        let size = try buffer.count("the bit coder's size")
        guard size >= 1, size <= buffer.remaining else {
            throw DracoFailure("a bit coder of \(size) bytes, \(buffer.remaining) left", at: start)
        }
        data = try buffer.take(size, "the bit coder's bytes")
        guard let last = data.last, last >> 6 < 3 else {
            throw DracoFailure("a bit coder's state of a size it cannot have", at: start)
        }
        let length = Int(last >> 6) + 1
        guard data.count >= length else { throw DracoFailure("a bit coder shorter than its state", at: start) }
        var value: UInt32 = 0
        for (shift, byte) in data.suffix(length).enumerated() { value |= UInt32(byte) << (8 * shift) }
        value &= (UInt32(1) << (8 * UInt32(length) - 2)) &- 1
        state = value &+ Self.lowerBound
        guard state < Self.lowerBound * 256 else { throw DracoFailure("a bit coder's state out of range", at: start) }
        offset = data.count - length
    }

    /// The next bit.
    mutating func next() -> Bool {
        if state < Self.lowerBound, offset > 0 {
            offset -= 1
            state = state &* 256 &+ UInt32(data[data.startIndex + offset])
        }
        let quotient = state >> 8
        let remainder = state & 0xFF
        let scaled = quotient &* one
        if remainder < one {
            state = scaled &+ remainder
            return true
        }
        state = state &- scaled &- one
        return false
    }
}
