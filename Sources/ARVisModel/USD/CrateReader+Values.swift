import ARVisSupport

extension CrateReader {
    /// Components per element and bytes per component of the numeric crate types, by type enum.
    private static let numericTypes: [Int: (count: Int, kind: Character)] = [
        1: (1, "b"), 2: (1, "B"), 3: (1, "i"), 4: (1, "I"), 5: (1, "l"), 6: (1, "L"), 7: (1, "h"), 8: (1, "f"),
        9: (1, "d"),
        13: (4, "d"), 14: (9, "d"), 15: (16, "d"), 16: (4, "d"), 17: (4, "f"), 18: (4, "h"),
        19: (2, "d"), 20: (2, "f"), 21: (2, "h"), 22: (2, "i"), 23: (3, "d"), 24: (3, "f"), 25: (3, "h"), 26: (3, "i"),
        27: (4, "d"), 28: (4, "f"), 29: (4, "h"), 30: (4, "i"), 56: (1, "d"),
    ]

    private static func size(of kind: Character) -> Int {
        switch kind {
        case "b", "B": 1
        case "h": 2
        case "l", "L", "d": 8
        default: 4
        }
    }

    /// An IEEE 754 half-precision number (written out: `Float16` is missing on some platforms).
    static func half(_ bits: UInt16) -> Double {
        let sign: Double = bits & 0x8000 != 0 ? -1 : 1
        let exponent = Int(bits >> 10 & 0x1F)
        let fraction = Double(bits & 0x3FF)
        switch exponent {
        case 0: return sign * fraction * 0x1p-24
        case 31: return fraction == 0 ? sign * .infinity : .nan
        default: return sign * (1 + fraction / 1024) * Double(sign: .plus, exponent: exponent - 15, significand: 1)
        }
    }

    /// Decodes one ValueRep. Its errors are located only by a byte offset, where one applies; the
    /// caller, which knows the spec and the field, locates the others, so values that read build no
    /// location.
    func value(_ rep: UInt64, depth: Int) throws(ModelError) -> USDValue {
        guard depth < 64 else { throw ModelError(.invalid, "values nest more than 64 deep") }
        let type = Int((rep >> 48) & 0xFF)
        let isArray = rep & (1 << 63) != 0
        let isInlined = rep & (1 << 62) != 0
        let isCompressed = rep & (1 << 61) != 0
        let payload = rep & 0xFFFF_FFFF_FFFF
        if isArray { return try array(type: type, payload: Int(payload), compressed: isCompressed) }
        if isInlined { return try inlined(type: type, bits: UInt32(truncatingIfNeeded: payload)) }
        let offset = Int(payload)
        switch type {
        case 10, 11, 12:
            return try inlined(type: type, bits: UInt32(truncatingIfNeeded: payload))
        case 31: return try dictionary(at: offset, depth: depth)
        case 32, 33, 34: return try listOp(at: offset, type: type)
        case 40, 41, 50:
            var cursor = BinaryReader(reader.bytes, what: "the crate file", offset: offset)
            let count = try cursor.size(try cursor.read(UInt64.self), elementSize: 4, at: offset)
            let items = try (0..<count).map { (_) throws(ModelError) in Int64(try cursor.read(UInt32.self)) }
            return type == 40
                ? .paths(try items.map { (i) throws(ModelError) in try path(i) })
                : .strings(
                    try items.map { (i) throws(ModelError) in
                        type == 41 ? try tokenText(i) : try stringText(i)
                    })
        case 46: return try timeSamples(at: offset, depth: depth)
        case 48:
            var cursor = BinaryReader(reader.bytes, what: "the crate file", offset: offset)
            let count = try cursor.size(try cursor.read(UInt64.self), elementSize: 8, at: offset)
            return .numbers(try numbers(kind: "d", count: count, at: offset + 8), width: 1)
        default:
            guard let numeric = Self.numericTypes[type] else { return .other }
            var values = try numbers(kind: numeric.kind, count: numeric.count, at: offset)
            // A GfQuat is stored imaginary part first; USDValue keeps the real part first, as text does.
            if (16...18).contains(type) { values = [values[3], values[0], values[1], values[2]] }
            return numeric.count == 1 ? .number(values[0]) : .vector(values)
        }
    }

    private func tokenText(_ index: Int64) throws(ModelError) -> String {
        guard index >= 0, index < Int64(tokenCount) else {
            throw ModelError(.invalid, "token \(index) does not exist")
        }
        return tokenAt(Int(index))
    }

    private func stringText(_ index: Int64) throws(ModelError) -> String {
        guard index >= 0, index < Int64(stringCount) else {
            throw ModelError(.invalid, "string \(index) does not exist")
        }
        return stringAt(Int(index))
    }

    private func path(_ index: Int64) throws(ModelError) -> String {
        guard index >= 0, index < Int64(pathCount) else {
            throw ModelError(.invalid, "path \(index) does not exist")
        }
        let path = pathAt(Int(index))
        guard !path.isEmpty else {
            throw ModelError(.invalid, "path \(index) is not in the path tree")
        }
        return path
    }

    private func inlined(type: Int, bits: UInt32) throws(ModelError) -> USDValue {
        switch type {
        case 1: return .bool(bits != 0)
        case 2, 4, 6, 42, 43, 44: return .number(Double(bits))
        case 3, 5: return .number(Double(Int32(bitPattern: bits)))
        case 7: return .number(Self.half(UInt16(truncatingIfNeeded: bits)))
        case 8, 9: return .number(Double(Float(bitPattern: bits)))
        case 10: return .string(try stringText(Int64(bits)))
        case 11: return .token(try tokenText(Int64(bits)))
        case 12: return .asset(try tokenText(Int64(bits)))
        case 31: return .dictionary([:])
        case 13, 14, 15:
            // A matrix inlined as its int8 diagonal.
            let n = type - 11
            var values = [Double](repeating: 0, count: n * n)
            for k in 0..<n { values[k * n + k] = Double(Int8(truncatingIfNeeded: bits >> (8 * UInt32(k)))) }
            return .vector(values)
        default:
            // Vectors inlined as one int8 per component.
            guard let numeric = Self.numericTypes[type], numeric.count <= 4 else { return .other }
            return .vector((0..<numeric.count).map { Double(Int8(truncatingIfNeeded: bits >> (8 * UInt32($0)))) })
        }
    }

    /// `count` numbers of one kind, little-endian, at `offset`.
    private func numbers(kind: Character, count: Int, at offset: Int) throws(ModelError) -> [Double] {
        let size = Self.size(of: kind)
        guard count <= (reader.bytes.count - min(offset, reader.bytes.count)) / size else {
            throw ModelError(
                .truncated, "an array of \(count) values at byte \(offset) runs past the end of the file",
                location: "byte \(offset)")
        }
        try reader.require(count * size, at: offset)
        switch kind {
        case "f": return try reader.array(of: Float.self, count: count, at: offset).map { Double($0) }
        case "d": return try reader.array(of: Double.self, count: count, at: offset)
        case "i":
            return try reader.array(of: Int32.self, count: count, at: offset).map { Double(Int32(littleEndian: $0)) }
        case "I":
            return try reader.array(of: UInt32.self, count: count, at: offset).map { Double(UInt32(littleEndian: $0)) }
        case "h":
            return try reader.array(of: UInt16.self, count: count, at: offset).map {
                Self.half(UInt16(littleEndian: $0))
            }
        case "l":
            return try reader.array(of: Int64.self, count: count, at: offset).map { Double(Int64(littleEndian: $0)) }
        case "L":
            return try reader.array(of: UInt64.self, count: count, at: offset).map { Double(UInt64(littleEndian: $0)) }
        default: return try reader.array(of: UInt8.self, count: count, at: offset).map { Double($0) }
        }
    }

    private func array(type: Int, payload: Int, compressed: Bool) throws(ModelError) -> USDValue {
        let isText = type == 10 || type == 11 || type == 12
        guard payload != 0 else {
            return isText ? .strings([]) : .numbers([], width: Self.numericTypes[type]?.count ?? 1)
        }
        var cursor = BinaryReader(reader.bytes, what: "the crate file", offset: payload)
        if minor < 5 { _ = try cursor.read(UInt32.self) }
        let count = minor < 7 ? Int(try cursor.read(UInt32.self)) : Int(clamping: try cursor.read(UInt64.self))
        guard count <= 200_000_000 else {
            throw ModelError(.tooLarge, "an array of \(count) elements")
        }
        if isText {
            let indices = try cursor.size(UInt64(count), elementSize: 4, at: cursor.offset)
            return .strings(
                try (0..<indices).map { (_) throws(ModelError) in
                    let index = Int64(try cursor.read(UInt32.self))
                    return type == 11 ? try tokenText(index) : try stringText(index)
                })
        }
        guard let numeric = Self.numericTypes[type] else { return .other }
        if compressed && numeric.count == 1 {
            return .numbers(
                try compressedNumbers(kind: numeric.kind, count: count, cursor: &cursor), width: 1)
        }
        let total = count.multipliedReportingOverflow(by: numeric.count)
        guard !total.overflow else { throw ModelError(.tooLarge, "an array of \(count) elements") }
        return .numbers(
            try numbers(kind: numeric.kind, count: total.partialValue, at: cursor.offset), width: numeric.count)
    }

    /// An integer array coded as integers, or a float array coded as integers ('i') or as a lookup
    /// table ('t').
    private func compressedNumbers(kind: Character, count: Int, cursor: inout BinaryReader)
        throws(ModelError) -> [Double]
    {
        switch kind {
        case "i", "I", "l", "L":
            let wide = kind == "l" || kind == "L"
            return try CrateCompression.readCompressedIntegers(&cursor, count: count, width: wide ? 8 : 4).map {
                kind == "I" ? Double(UInt32(truncatingIfNeeded: $0)) : Double($0)
            }
        case "h", "f", "d":
            let code = try cursor.read(UInt8.self)
            if code == UInt8(ascii: "i") {
                return try CrateCompression.readCompressedIntegers(&cursor, count: count).map {
                    Double(Int32(truncatingIfNeeded: $0))
                }
            }
            guard code == UInt8(ascii: "t") else {
                throw ModelError(.invalid, "a compressed float array has the unknown code \(code)")
            }
            let tableSize = try cursor.size(
                UInt64(try cursor.read(UInt32.self)), elementSize: Self.size(of: kind), at: cursor.offset)
            let table = try numbers(kind: kind, count: tableSize, at: cursor.offset)
            cursor.offset += tableSize * Self.size(of: kind)
            return try CrateCompression.readCompressedIntegers(&cursor, count: count).map {
                (index) throws(ModelError) in
                guard index >= 0, index < Int64(table.count) else {
                    throw ModelError(.invalid, "a lookup index is out of range")
                }
                return table[Int(index)]
            }
        default:
            throw ModelError(.invalid, "an array of this type cannot be compressed")
        }
    }

    /// A list op's items: explicit, added, prepended and appended, in that order (deleted and
    /// ordered items are dropped).
    private func listOp(at offset: Int, type: Int) throws(ModelError) -> USDValue {
        var cursor = BinaryReader(reader.bytes, what: "the crate file", offset: offset)
        let header = try cursor.read(UInt8.self)
        var items: [String] = []
        for bit: UInt8 in [0x02, 0x04, 0x20, 0x40, 0x08, 0x10] where header & bit != 0 {
            let count = try cursor.size(try cursor.read(UInt64.self), elementSize: 4, at: cursor.offset)
            for _ in 0..<count {
                let index = Int64(try cursor.read(UInt32.self))
                guard bit != 0x08 && bit != 0x10 else { continue }
                items.append(
                    type == 34
                        ? try path(index)
                        : type == 32 ? try tokenText(index) : try stringText(index))
            }
        }
        return type == 34 ? .paths(items) : .strings(items)
    }

    /// Follows an `i64` jump stored at `offset`, relative to `offset`.
    private func jump(from offset: Int) throws(ModelError) -> Int {
        let distance = try reader.load(Int64.self, at: offset)
        let (target, overflow) = Int64(offset).addingReportingOverflow(distance)
        guard !overflow, target >= 0, target < Int64(reader.bytes.count) else {
            throw ModelError(.invalid, "a value points outside the file", location: "byte \(offset)")
        }
        return Int(target)
    }

    private func dictionary(at offset: Int, depth: Int) throws(ModelError) -> USDValue {
        var cursor = BinaryReader(reader.bytes, what: "the crate file", offset: offset)
        let count = try cursor.size(try cursor.read(UInt64.self), elementSize: 12, at: offset)
        var result: [String: USDValue] = [:]
        for _ in 0..<count {
            let key = try stringText(Int64(try cursor.read(UInt32.self)))
            let repOffset = try jump(from: cursor.offset)
            result[key] = try value(try reader.load(UInt64.self, at: repOffset), depth: depth + 1)
            cursor.offset = repOffset + 8
        }
        return .dictionary(result)
    }

    private func timeSamples(at offset: Int, depth: Int) throws(ModelError) -> USDValue {
        let timesAt = try jump(from: offset)
        let times =
            try value(try reader.load(UInt64.self, at: timesAt), depth: depth + 1).components ?? []
        let valuesAt = try jump(from: timesAt + 8)
        var cursor = BinaryReader(reader.bytes, what: "the crate file", offset: valuesAt)
        let count = try cursor.size(try cursor.read(UInt64.self), elementSize: 8, at: valuesAt)
        guard count == times.count else {
            throw ModelError(.invalid, "\(times.count) sample times but \(count) values")
        }
        var samples: [(time: Double, value: USDValue)] = []
        for time in times {
            samples.append((time, try value(try cursor.read(UInt64.self), depth: depth + 1)))
        }
        return .timeSamples(samples.sorted { $0.time < $1.time })
    }
}
