/// Writes a binary USD layer (crate version 0.8.0, what usd-core writes by default): specs and
/// their fields in, `.usdc` bytes out. Structural sections are integer-coded and framed as LZ4;
/// arrays are stored uncompressed, which every reader accepts.
struct CrateWriter {
    /// A field value, with the crate type it is written as.
    enum Value {
        case token(String)
        case asset(String)
        case string(String)
        case bool(Bool)
        case int(Int32)
        case float(Float)
        case double(Double)
        case specifier(UInt32)
        case variability(UInt32)
        case vec2f(SIMD2<Float>)
        case vec3f(SIMD3<Float>)
        case vec4f(SIMD4<Float>)
        /// 16 numbers, row-major (USD's row-vector convention: translation in the last row).
        case matrix4d([Double])
        case tokenVector([String])
        /// An explicit list of target or connection paths.
        case pathListOp([String])
        /// Tokens prepended to the list (how `apiSchemas` are applied).
        case prependedTokens([String])
        /// Floats, `width` per element, written as `float[]`, `float2[]`, `float3[]` or `float4[]`.
        case floats([Float], width: Int)
        case ints([Int32])
        case tokens([String])
    }

    private struct SpecRecord {
        var path: String
        var type: USDLayer.SpecType
        var fields: [(String, Value)]
    }

    private var specs: [SpecRecord] = []

    /// Adds a spec; paths are absolute (`/`, `/Root/Mesh`, `/Root/Mesh.points`).
    mutating func add(_ path: String, _ type: USDLayer.SpecType, _ fields: [(String, Value)]) {
        specs.append(SpecRecord(path: path, type: type, fields: fields))
    }

    /// The `.usdc` file.
    func write() -> [UInt8] {
        var state = Packing()
        _ = state.token(";-)")  // Token 0 is never a property name (a property is a negative token index).
        _ = state.path("/")
        var out = BinaryWriter(bytes: [UInt8](repeating: 0, count: 88))
        var fieldSets: [Int32] = []
        var specRows: [(path: Int32, fieldSet: Int32, type: Int32)] = []
        for spec in specs {
            let fieldSet = Int32(fieldSets.count)
            for (name, value) in spec.fields {
                let rep = state.rep(value, data: &out)
                state.fieldNames.append(Int32(state.token(name)))
                state.fieldReps.append(rep)
                fieldSets.append(Int32(state.fieldReps.count - 1))
            }
            fieldSets.append(-1)
            specRows.append((Int32(state.path(spec.path)), fieldSet, Int32(spec.type.rawValue)))
        }
        let paths = state.pathTree()
        var sections: [(String, Int, Int)] = []
        func section(_ name: String, _ body: (inout BinaryWriter) -> Void) {
            let start = out.bytes.count
            body(&out)
            sections.append((name, start, out.bytes.count - start))
        }
        section("TOKENS") { out in
            var blob: [UInt8] = []
            for token in state.tokens { blob += Array(token.utf8) + [0] }
            let compressed = CrateCompression.compress(blob)
            out.write(UInt64(state.tokens.count))
            out.write(UInt64(blob.count))
            out.write(UInt64(compressed.count))
            out.bytes += compressed
        }
        section("STRINGS") { out in
            out.write(UInt64(state.strings.count))
            for token in state.strings { out.write(UInt32(token)) }
        }
        section("FIELDS") { out in
            out.write(UInt64(state.fieldNames.count))
            CrateCompression.writeCompressedIntegers(state.fieldNames, to: &out)
            var reps = BinaryWriter()
            for rep in state.fieldReps { reps.write(rep) }
            let compressed = CrateCompression.compress(reps.bytes)
            out.write(UInt64(compressed.count))
            out.bytes += compressed
        }
        section("FIELDSETS") { out in
            out.write(UInt64(fieldSets.count))
            CrateCompression.writeCompressedIntegers(fieldSets, to: &out)
        }
        section("PATHS") { out in
            out.write(UInt64(state.paths.count))
            out.write(UInt64(paths.indices.count))
            CrateCompression.writeCompressedIntegers(paths.indices, to: &out)
            CrateCompression.writeCompressedIntegers(paths.elements, to: &out)
            CrateCompression.writeCompressedIntegers(paths.jumps, to: &out)
        }
        section("SPECS") { out in
            out.write(UInt64(specRows.count))
            CrateCompression.writeCompressedIntegers(specRows.map(\.path), to: &out)
            CrateCompression.writeCompressedIntegers(specRows.map(\.fieldSet), to: &out)
            CrateCompression.writeCompressedIntegers(specRows.map(\.type), to: &out)
        }
        let tocOffset = out.bytes.count
        out.write(UInt64(sections.count))
        for (name, start, size) in sections {
            out.bytes += Array(name.utf8) + [UInt8](repeating: 0, count: 16 - name.utf8.count)
            out.write(Int64(start))
            out.write(Int64(size))
        }
        var bootstrap = BinaryWriter(bytes: CrateReader.magic + [0, 8, 0, 0, 0, 0, 0, 0])
        bootstrap.write(Int64(tocOffset))
        out.bytes.replaceSubrange(0..<bootstrap.bytes.count, with: bootstrap.bytes)
        return out.bytes
    }
}

/// The tables a crate file is made of, filled as specs are packed.
private struct Packing {
    var tokens: [String] = []
    var tokenIndex: [String: Int] = [:]
    var strings: [Int] = []
    var stringIndex: [String: Int] = [:]
    var paths: [String] = []
    var pathIndex: [String: Int] = [:]
    var fieldNames: [Int32] = []
    var fieldReps: [UInt64] = []

    mutating func token(_ text: String) -> Int {
        if let index = tokenIndex[text] { return index }
        tokens.append(text)
        tokenIndex[text] = tokens.count - 1
        return tokens.count - 1
    }

    mutating func string(_ text: String) -> Int {
        if let index = stringIndex[text] { return index }
        strings.append(token(text))
        stringIndex[text] = strings.count - 1
        return strings.count - 1
    }

    /// The path's index, adding it and its ancestors (and its element's token) first.
    mutating func path(_ path: String) -> Int {
        if let index = pathIndex[path] { return index }
        if path != "/" {
            let (parent, element) = Self.split(path)
            _ = self.path(parent)
            _ = token(element.name)
        } else {
            _ = token("")
        }
        paths.append(path)
        pathIndex[path] = paths.count - 1
        return paths.count - 1
    }

    /// A path's parent and last element (`/A/B.c` → `/A/B`, property `c`).
    static func split(_ path: String) -> (parent: String, element: (name: String, isProperty: Bool)) {
        // From the end, so a deep path costs the length of its last element, not its own.
        guard let separator = path.utf8.lastIndex(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: ".") })
        else { return ("/", (path, false)) }
        let name = String(path[path.utf8.index(after: separator)...])
        if path.utf8[separator] == UInt8(ascii: ".") { return (String(path[..<separator]), (name, true)) }
        return (separator == path.startIndex ? "/" : String(path[..<separator]), (name, false))
    }

    /// The compressed path tree: pre-order path indices, element tokens (negative for properties)
    /// and jumps (to the next sibling, or −1 child only, 0 sibling only, −2 leaf).
    func pathTree() -> (indices: [Int32], elements: [Int32], jumps: [Int32]) {
        var children: [String: [String]] = [:]
        for path in paths where path != "/" { children[Self.split(path).parent, default: []].append(path) }
        var indices: [Int32] = []
        var elements: [Int32] = []
        var jumps: [Int32] = []
        // Iterative pre-order: each entry is a path and whether a sibling follows it.
        var stack: [(path: String, hasSibling: Bool)] = [("/", false)]
        var jumpFixups: [(position: Int, path: String)] = []
        var startOf: [String: Int] = [:]
        while let (path, hasSibling) = stack.popLast() {
            let position = indices.count
            startOf[path] = position
            indices.append(Int32(pathIndex[path]!))
            if path == "/" {
                elements.append(Int32(tokenIndex[""]!))
            } else {
                let element = Self.split(path).element
                let index = Int32(tokenIndex[element.name]!)
                elements.append(element.isProperty ? -index : index)
            }
            let kids = children[path] ?? []
            switch (kids.isEmpty, hasSibling) {
            case (false, true):
                jumps.append(0)
                jumpFixups.append((position, path))
            case (false, false): jumps.append(-1)
            case (true, true): jumps.append(0)
            case (true, false): jumps.append(-2)
            }
            for (k, kid) in kids.enumerated().reversed() { stack.append((kid, k < kids.count - 1)) }
        }
        // A node with both a child and a sibling jumps over its subtree to the sibling.
        for (position, path) in jumpFixups {
            var count = 0
            var pending = children[path] ?? []
            while let next = pending.popLast() {
                count += 1
                pending += children[next] ?? []
            }
            jumps[position] = Int32(1 + count)
        }
        _ = startOf
        return (indices, elements, jumps)
    }

    /// Where equal arrays were written, by a hash of their bytes: a mesh drawn by many nodes is
    /// written once and every instance's values point at it, as usd-core's crate writer shares values.
    var arrays: [Int: [Range<Int>]] = [:]

    /// The offset of an array just written at `offset`: an earlier equal array's, the new copy
    /// then dropped (arrays under 256 bytes are kept as they are).
    mutating func shared(from offset: Int, in data: inout BinaryWriter) -> Int {
        let written = offset..<data.bytes.count
        guard written.count >= 256 else { return offset }
        var hasher = Hasher()
        data.bytes[written].withUnsafeBytes { hasher.combine(bytes: $0) }
        let key = hasher.finalize()
        if let earlier = arrays[key]?.first(where: {
            $0.count == written.count && data.bytes[$0].elementsEqual(data.bytes[written])
        }) {
            data.bytes.removeSubrange(written)
            return earlier.lowerBound
        }
        arrays[key, default: []].append(written)
        return offset
    }

    /// Packs a value: inline in the rep where the type is always inlined, else appended to `data`.
    mutating func rep(_ value: CrateWriter.Value, data: inout BinaryWriter) -> UInt64 {
        func inline(_ type: UInt64, _ bits: UInt32) -> UInt64 { 1 << 62 | type << 48 | UInt64(bits) }
        func stored(_ type: UInt64, array: Bool = false, _ write: (inout BinaryWriter) -> Void) -> UInt64 {
            data.pad(toMultipleOf: 8)
            var offset = data.bytes.count
            write(&data)
            if array { offset = shared(from: offset, in: &data) }
            return (array ? 1 << 63 : 0) | type << 48 | UInt64(offset)
        }
        switch value {
        case .token(let text): return inline(11, UInt32(token(text)))
        case .asset(let text): return inline(12, UInt32(token(text)))
        case .string(let text): return inline(10, UInt32(string(text)))
        case .bool(let flag): return inline(1, flag ? 1 : 0)
        case .int(let number): return inline(3, UInt32(bitPattern: number))
        case .float(let number): return inline(8, number.bitPattern)
        case .specifier(let number): return inline(42, number)
        case .variability(let number): return inline(44, number)
        case .double(let number): return stored(9) { $0.write(number) }
        case .vec2f(let v): return stored(20) { $0.writeRaw([v.x, v.y]) }
        case .vec3f(let v): return stored(24) { $0.writeRaw([v.x, v.y, v.z]) }
        case .vec4f(let v): return stored(28) { $0.writeRaw([v.x, v.y, v.z, v.w]) }
        case .matrix4d(let values): return stored(15) { $0.writeRaw(values) }
        case .tokenVector(let texts):
            let indices = texts.map { UInt32(token($0)) }
            return stored(41) {
                $0.write(UInt64(indices.count))
                $0.writeRaw(indices)
            }
        case .pathListOp(let targets):
            let indices = targets.map { UInt32(path($0)) }
            return stored(34) {
                $0.write(UInt8(0x03))
                $0.write(UInt64(indices.count))
                $0.writeRaw(indices)
            }
        case .prependedTokens(let texts):
            let indices = texts.map { UInt32(token($0)) }
            return stored(32) {
                $0.write(UInt8(0x20))
                $0.write(UInt64(indices.count))
                $0.writeRaw(indices)
            }
        case .floats(let values, let width):
            let type: UInt64 = [1: 8, 2: 20, 3: 24, 4: 28][width] ?? 8
            guard !values.isEmpty else { return 1 << 63 | type << 48 }
            return stored(type, array: true) {
                $0.write(UInt64(values.count / width))
                $0.writeRaw(values)
            }
        case .ints(let values):
            guard !values.isEmpty else { return 1 << 63 | 3 << 48 }
            return stored(3, array: true) {
                $0.write(UInt64(values.count))
                $0.writeRaw(values)
            }
        case .tokens(let texts):
            let indices = texts.map { UInt32(token($0)) }
            guard !indices.isEmpty else { return 1 << 63 | 11 << 48 }
            return stored(11, array: true) {
                $0.write(UInt64(indices.count))
                $0.writeRaw(indices)
            }
        }
    }
}
