import ARVisSupport

/// The compression of USD crate files: TfFastCompression framing around LZ4 blocks, and the
/// integer coding of structural sections and integer arrays (OpenUSD's `integerCoding.cpp`).
enum CrateCompression {
    /// Decodes a TfFastCompression buffer whose uncompressed size is known.
    static func decompress(_ input: ArraySlice<UInt8>, size: Int) throws(ModelError) -> [UInt8] {
        let output = try decompress(input, limit: size)
        guard output.count == size else {
            throw ModelError(.invalid, "a compressed block decodes to \(output.count) bytes, not the \(size) announced")
        }
        return output
    }

    /// Decodes a TfFastCompression buffer (one LZ4 block, or chunks of them) of at most `limit` bytes.
    static func decompress(_ input: ArraySlice<UInt8>, limit: Int) throws(ModelError) -> [UInt8] {
        guard let chunks = input.first else {
            throw ModelError(.truncated, "an empty compressed block in the crate file")
        }
        var output: [UInt8] = []
        output.reserveCapacity(min(limit, 1 << 26))
        if chunks == 0 {
            try lz4Decode(input.dropFirst(), into: &output, limit: limit)
            return output
        }
        // The chunk count is a signed byte: 1 to 127 chunks.
        let count = Int(Int8(bitPattern: chunks))
        guard count > 0 else {
            throw ModelError(.invalid, "a compressed block announces \(count) chunks; it has 1 to 127")
        }
        var reader = BinaryReader(Array(input), what: "a compressed block")
        reader.offset = 1
        for _ in 0..<count {
            let length = Int(try reader.read(Int32.self))
            guard length >= 0 else { throw ModelError(.invalid, "a compressed chunk has a negative size") }
            try lz4Decode(try reader.read(count: length), into: &output, limit: limit)
        }
        return output
    }

    /// Decodes one raw LZ4 block, never writing more than `limit` bytes in all.
    static func lz4Decode(_ block: ArraySlice<UInt8>, into output: inout [UInt8], limit: Int) throws(ModelError) {
        var i = block.startIndex
        let end = block.endIndex
        func length(_ nibble: Int) throws(ModelError) -> Int {
            var value = nibble
            guard nibble == 15 else { return value }
            while true {
                guard i < end else { throw ModelError(.truncated, "an LZ4 block ends inside a length") }
                let byte = Int(block[i])
                i += 1
                value += byte
                guard byte == 255 else { return value }
            }
        }
        while i < end {
            let token = Int(block[i])
            i += 1
            let literals = try length(token >> 4)
            guard literals <= end - i, output.count + literals <= limit else {
                throw ModelError(.invalid, "an LZ4 block's literals run past its end")
            }
            output.append(contentsOf: block[i..<i + literals])
            i += literals
            if i == end { return }
            guard end - i >= 2 else { throw ModelError(.truncated, "an LZ4 block ends inside a match offset") }
            let distance = Int(block[i]) | Int(block[i + 1]) << 8
            i += 2
            let match = try length(token & 15) + 4
            guard distance > 0, distance <= output.count, output.count + match <= limit else {
                throw ModelError(.invalid, "an LZ4 match points outside the decoded data")
            }
            let start = output.count - distance
            if distance >= match {
                output.append(contentsOf: output[start..<start + match])
            } else {
                for k in 0..<match { output.append(output[start + k]) }
            }
        }
    }

    /// A TfFastCompression buffer holding `input` as one literals-only LZ4 block (valid LZ4 that every
    /// decoder reads; crate sections are small, so real compression would gain little).
    static func compress(_ input: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0]
        out.reserveCapacity(input.count + input.count / 255 + 16)
        if input.count < 15 {
            out.append(UInt8(input.count << 4))
        } else {
            out.append(0xF0)
            var rest = input.count - 15
            while rest >= 255 {
                out.append(255)
                rest -= 255
            }
            out.append(UInt8(rest))
        }
        out += input
        return out
    }

    // MARK: Integer coding

    /// Decodes `count` integers (32- or 64-bit, by `width`) from an integer-coded buffer.
    static func decodeIntegers(_ buffer: [UInt8], count: Int, width: Int) throws(ModelError) -> [Int64] {
        guard count > 0 else { return [] }
        let reader = BinaryReader(buffer, what: "an integer-coded block")
        let common: Int64 = width == 8 ? try reader.load(Int64.self, at: 0) : Int64(try reader.load(Int32.self, at: 0))
        let codesStart = width
        var data = codesStart + (count * 2 + 7) / 8
        try reader.require(0, at: data)
        var result = [Int64](repeating: 0, count: count)
        var previous: Int64 = 0
        for index in 0..<count {
            let code = (buffer[codesStart + index / 4] >> (2 * UInt8(index % 4))) & 3
            let delta: Int64
            switch (code, width) {
            case (0, _): delta = common
            case (1, 4):
                delta = Int64(try reader.load(Int8.self, at: data))
                data += 1
            case (2, 4):
                delta = Int64(try reader.load(Int16.self, at: data))
                data += 2
            case (3, 4):
                delta = Int64(try reader.load(Int32.self, at: data))
                data += 4
            case (1, _):
                delta = Int64(try reader.load(Int16.self, at: data))
                data += 2
            case (2, _):
                delta = Int64(try reader.load(Int32.self, at: data))
                data += 4
            default:
                delta = try reader.load(Int64.self, at: data)
                data += 8
            }
            previous = width == 4 ? Int64(Int32(truncatingIfNeeded: previous &+ delta)) : previous &+ delta
            result[index] = previous
        }
        return result
    }

    /// Integer-codes 32-bit values: the most common delta, 2-bit codes, then the other deltas at
    /// their smallest width.
    static func encodeIntegers(_ values: [Int32]) -> [UInt8] {
        guard !values.isEmpty else { return [] }
        var deltas = [Int32](repeating: 0, count: values.count)
        var previous: Int32 = 0
        var counts: [Int32: Int] = [:]
        for (index, value) in values.enumerated() {
            deltas[index] = value &- previous
            previous = value
            counts[deltas[index], default: 0] += 1
        }
        let common = counts.max { $0.value != $1.value ? $0.value < $1.value : $0.key < $1.key }!.key
        var out = BinaryWriter()
        out.write(common)
        let codesStart = out.bytes.count
        out.bytes += [UInt8](repeating: 0, count: (values.count * 2 + 7) / 8)
        for (index, delta) in deltas.enumerated() {
            let code: UInt8
            if delta == common {
                code = 0
            } else if let small = Int8(exactly: delta) {
                code = 1
                out.write(small)
            } else if let small = Int16(exactly: delta) {
                code = 2
                out.write(small)
            } else {
                code = 3
                out.write(delta)
            }
            out.bytes[codesStart + index / 4] |= code << (2 * UInt8(index % 4))
        }
        return out.bytes
    }

    /// Reads `u64 compressedSize` + a compressed integer-coded block of `count` values.
    static func readCompressedIntegers(_ reader: inout BinaryReader, count: Int, width: Int = 4) throws(ModelError)
        -> [Int64]
    {
        let compressedSize = try reader.size(try reader.read(UInt64.self), at: reader.offset)
        let block = try reader.read(count: compressedSize)
        guard count <= 100_000_000 else { throw ModelError(.tooLarge, "a crate section announces \(count) integers") }
        guard count > 0 else { return [] }
        let encoded = try decompress(block, limit: width + (count * 2 + 7) / 8 + count * width)
        return try decodeIntegers(encoded, count: count, width: width)
    }

    /// Writes `u64 compressedSize` + the compressed integer coding of `values`.
    static func writeCompressedIntegers(_ values: [Int32], to writer: inout BinaryWriter) {
        let compressed = compress(encodeIntegers(values))
        writer.write(UInt64(compressed.count))
        writer.bytes += compressed
    }
}
