import ARVisSupport

/// Reads a binary USD layer (a `.usdc` "crate" file) of versions 0.1.0 to 0.14.x — the six
/// structural sections plain or compressed, and every value type a mesh, a transform hierarchy or
/// a preview material uses (scalars, vectors, matrices, arrays plain or compressed, tokens, list
/// ops, dictionaries, time samples). Offsets are checked before every read; values of kinds ARVis
/// does not interpret become ``USDValue/other``.
struct CrateReader {
    let reader: BinaryReader
    let minor: Int
    private var tokens: [String] = []
    private var strings: [String] = []
    private var fieldNames: [Int] = []
    private var fieldReps: [UInt64] = []
    private var fieldSets: [Int64] = []
    private var paths: [String] = []
    /// The path tree's nodes read so far, and the UTF-8 bytes of their paths.
    private var pathNodes = 0
    private var pathBytes = 0

    static let magic = Array("PXR-USDC".utf8)
    /// The most tokens, strings, fields, paths or specs a layer may have (Apple's largest scans have thousands).
    static let maximumItems = 10_000_000
    /// The most UTF-8 bytes a layer's paths may hold together. Each path repeats its parent's, so a
    /// chain of nested prims costs the square of its depth (Apple's largest scans need a few MB).
    static let maximumPathBytes = 64 << 20

    /// Refuses a section count past ``maximumItems``.
    static func checkCount(_ count: Int, _ section: String) throws(ModelError) -> Int {
        guard count <= maximumItems else {
            throw ModelError(
                .tooLarge, "the \(section) section holds \(count) items, more than the \(maximumItems) read",
                location: section)
        }
        return count
    }

    init(_ bytes: [UInt8]) throws(ModelError) {
        reader = BinaryReader(bytes, what: "the crate file")
        guard bytes.count >= 88, bytes.starts(with: Self.magic) else {
            throw ModelError(.invalid, "not a binary USD file: it does not start with PXR-USDC", location: "byte 0")
        }
        let major = Int(bytes[8])
        minor = Int(bytes[9])
        guard major == 0, (1...14).contains(minor) else {
            throw ModelError(
                .unsupported, "crate version \(major).\(minor).\(bytes[10]); versions 0.1.0 to 0.14.x are read",
                location: "byte 8")
        }
        let tocOffset = Int(try reader.load(Int64.self, at: 16))
        var toc = BinaryReader(bytes, what: "the crate file", offset: tocOffset)
        try reader.require(8, at: tocOffset)
        let sectionCount = try reader.size(try toc.read(UInt64.self), elementSize: 32, at: tocOffset)
        var sections: [String: (start: Int, size: Int)] = [:]
        for _ in 0..<sectionCount {
            let name = String(decoding: try toc.read(count: 16).prefix { $0 != 0 }, as: UTF8.self)
            let start = Int(try toc.read(Int64.self))
            let size = Int(try toc.read(Int64.self))
            try reader.require(size, at: start)
            sections[name] = (start, size)
        }
        func section(_ name: String) throws(ModelError) -> BinaryReader {
            guard let section = sections[name] else {
                throw ModelError(.invalid, "the crate file has no \(name) section", location: "byte \(tocOffset)")
            }
            return BinaryReader(bytes, what: "the \(name) section", offset: section.start)
        }
        tokens = try Self.readTokens(try section("TOKENS"), compressed: minor >= 4)
        try readStrings(try section("STRINGS"))
        try readFields(try section("FIELDS"))
        try readFieldSets(try section("FIELDSETS"))
        try readPaths(try section("PATHS"))
        self.specSection = try section("SPECS")
    }

    private var specSection = BinaryReader([], what: "the SPECS section")

    var tokenCount: Int { tokens.count }
    var stringCount: Int { strings.count }
    var pathCount: Int { paths.count }
    func tokenAt(_ index: Int) -> String { tokens[index] }
    func stringAt(_ index: Int) -> String { strings[index] }
    func pathAt(_ index: Int) -> String { paths[index] }

    // MARK: Sections

    private static func readTokens(_ section: BinaryReader, compressed: Bool) throws(ModelError) -> [String] {
        var section = section
        let count = try checkCount(Int(clamping: try section.read(UInt64.self)), "TOKENS")
        let blob: [UInt8]
        if compressed {
            let size = try section.size(try section.read(UInt64.self), at: section.offset)
            let compressedSize = try section.size(try section.read(UInt64.self), at: section.offset)
            guard size <= 1 << 30 else { throw ModelError(.tooLarge, "the token table is \(size) bytes") }
            blob = try CrateCompression.decompress(try section.read(count: compressedSize), size: size)
        } else {
            blob = Array(try section.read(count: try section.size(try section.read(UInt64.self), at: section.offset)))
        }
        let result = blob.split(separator: 0, omittingEmptySubsequences: false).prefix(count).map {
            String(decoding: $0, as: UTF8.self)
        }
        guard result.count == count else {
            throw ModelError(.invalid, "the token table holds fewer than its \(count) tokens", location: "TOKENS")
        }
        return result
    }

    private func token(_ index: Int64, _ location: String) throws(ModelError) -> String {
        guard index >= 0, index < tokens.count else {
            throw ModelError(.invalid, "token \(index) does not exist", location: location)
        }
        return tokens[Int(index)]
    }

    private mutating func readStrings(_ section: BinaryReader) throws(ModelError) {
        var section = section
        let count = try Self.checkCount(
            try section.size(try section.read(UInt64.self), elementSize: 4, at: section.offset), "STRINGS")
        strings = try (0..<count).map { (_) throws(ModelError) in
            try token(Int64(try section.read(UInt32.self)), "STRINGS")
        }
    }

    private mutating func readFields(_ section: BinaryReader) throws(ModelError) {
        var section = section
        let count = try Self.checkCount(
            try section.size(try section.read(UInt64.self), elementSize: minor >= 4 ? 1 : 16, at: section.offset),
            "FIELDS")
        if minor >= 4 {
            fieldNames = try CrateCompression.readCompressedIntegers(&section, count: count).map { Int($0) }
            let size = try section.size(try section.read(UInt64.self), at: section.offset)
            let raw = try CrateCompression.decompress(try section.read(count: size), size: count * 8)
            fieldReps = try BinaryReader(raw, what: "FIELDS").array(of: UInt64.self, count: count, at: 0).map {
                UInt64(littleEndian: $0)
            }
        } else {
            for _ in 0..<count {
                _ = try section.read(UInt32.self)
                fieldNames.append(Int(try section.read(UInt32.self)))
                fieldReps.append(try section.read(UInt64.self))
            }
        }
        for name in fieldNames where !tokens.indices.contains(name) {
            throw ModelError(.invalid, "a field names token \(name), which does not exist", location: "FIELDS")
        }
    }

    private mutating func readFieldSets(_ section: BinaryReader) throws(ModelError) {
        var section = section
        let count = try Self.checkCount(
            try section.size(try section.read(UInt64.self), elementSize: minor >= 4 ? 1 : 4, at: section.offset),
            "FIELDSETS")
        if minor >= 4 {
            fieldSets = try CrateCompression.readCompressedIntegers(&section, count: count).map {
                Int64(UInt32(truncatingIfNeeded: $0))
            }
        } else {
            fieldSets = try (0..<count).map { (_) throws(ModelError) in Int64(try section.read(UInt32.self)) }
        }
    }

    private mutating func readPaths(_ section: BinaryReader) throws(ModelError) {
        var section = section
        let count = try Self.checkCount(
            try section.size(try section.read(UInt64.self), elementSize: 1, at: section.offset), "PATHS")
        paths = [String](repeating: "", count: count)
        guard minor >= 4 else { return try readPlainPaths(&section) }
        let encoded = try Self.checkCount(try section.size(try section.read(UInt64.self), at: section.offset), "PATHS")
        let pathIndices = try CrateCompression.readCompressedIntegers(&section, count: encoded)
        let elements = try CrateCompression.readCompressedIntegers(&section, count: encoded).map {
            Int64(Int32(truncatingIfNeeded: $0))
        }
        let jumps = try CrateCompression.readCompressedIntegers(&section, count: encoded).map {
            Int64(Int32(truncatingIfNeeded: $0))
        }
        var pending: [(index: Int, parent: String?)] = encoded > 0 ? [(0, nil)] : []
        while let (start, parentPath) = pending.popLast() {
            var index = start
            var parent = parentPath
            while true {
                guard index < encoded else {
                    throw ModelError(.invalid, "the path tree jumps past its end", location: "PATHS")
                }
                let path = try childPath(parent, element: elements[index], location: "PATHS")
                try setPath(Int(pathIndices[index]), path, nodes: encoded)
                let jump = jumps[index]
                let hasChild = jump > 0 || jump == -1
                let hasSibling = jump >= 0
                if hasChild && hasSibling { pending.append((index + Int(jump), parent)) }
                if hasChild { parent = path } else if !hasSibling { break }
                index += 1
            }
        }
    }

    /// Paths of files before 0.4.0: a pre-order tree of 12-byte headers (16 in 0.0.x).
    private mutating func readPlainPaths(_ section: inout BinaryReader) throws(ModelError) {
        var pending: [(offset: Int, parent: String?)] = [(section.offset, nil)]
        while let (start, parentPath) = pending.popLast() {
            var cursor = BinaryReader(section.bytes, what: "PATHS", offset: start)
            var parent = parentPath
            while true {
                let pathIndex = Int(try cursor.read(UInt32.self))
                let element = Int64(try cursor.read(UInt32.self))
                let bits = try cursor.read(UInt8.self)
                _ = try cursor.read(count: 3)
                let path = try childPath(parent, element: bits & 4 != 0 ? -element : element, location: "PATHS")
                try setPath(pathIndex, path, nodes: paths.count + 1)
                let hasChild = bits & 1 != 0
                let hasSibling = bits & 2 != 0
                if hasChild && hasSibling { pending.append((Int(try cursor.read(Int64.self)), parent)) }
                if hasChild { parent = path } else if hasSibling { continue } else { break }
            }
        }
    }

    private func childPath(_ parent: String?, element: Int64, location: String) throws(ModelError) -> String {
        guard let parent else { return "/" }
        let name = try token(abs(element), location)
        if element < 0 { return parent + "." + name }
        return parent == "/" ? "/" + name : parent + "/" + name
    }

    /// Records the path of a node of the path tree. A tree has at most `nodes` nodes: one whose jumps
    /// visit a node again is refused, as each visit can fork and the work would double per level.
    private mutating func setPath(_ index: Int, _ path: String, nodes: Int) throws(ModelError) {
        pathNodes += 1
        guard pathNodes <= nodes else {
            throw ModelError(.invalid, "the path tree has more nodes than its \(nodes)", location: "PATHS")
        }
        pathBytes += path.utf8.count
        guard pathBytes <= Self.maximumPathBytes else {
            throw ModelError(
                .tooLarge,
                "the paths hold more than \(Self.maximumPathBytes >> 20) MB of text: prims are nested too deep",
                location: "PATHS")
        }
        guard paths.indices.contains(index) else {
            throw ModelError(.invalid, "path \(index) does not exist", location: "PATHS")
        }
        paths[index] = path
    }

    // MARK: Specs

    /// Every spec with its fields decoded.
    func layer() throws(ModelError) -> USDLayer {
        var section = specSection
        let count = try Self.checkCount(try section.size(try section.read(UInt64.self), at: section.offset), "SPECS")
        var pathIndices: [Int64] = []
        var setIndices: [Int64] = []
        var types: [Int64] = []
        if minor >= 4 {
            pathIndices = try CrateCompression.readCompressedIntegers(&section, count: count)
            setIndices = try CrateCompression.readCompressedIntegers(&section, count: count)
            types = try CrateCompression.readCompressedIntegers(&section, count: count)
        } else {
            for _ in 0..<count {
                pathIndices.append(Int64(try section.read(UInt32.self)))
                setIndices.append(Int64(try section.read(UInt32.self)))
                types.append(Int64(try section.read(UInt32.self)))
            }
        }
        var layer = USDLayer()
        for k in 0..<count {
            guard paths.indices.contains(Int(pathIndices[k])),
                let type = USDLayer.SpecType(rawValue: UInt32(truncatingIfNeeded: types[k]))
            else {
                throw ModelError(.invalid, "spec \(k) names a path or kind that does not exist", location: "SPECS")
            }
            let path = paths[Int(pathIndices[k])]
            guard !path.isEmpty else {
                throw ModelError(
                    .invalid, "spec \(k) names path \(pathIndices[k]), which the path tree never reaches",
                    location: "SPECS")
            }
            var spec = USDLayer.Spec(type: type)
            var index = Int(setIndices[k])
            while true {
                guard fieldSets.indices.contains(index) else {
                    throw ModelError(.invalid, "a field set runs past its section", location: path)
                }
                let field = Int(fieldSets[index])
                if fieldSets[index] == 0xFFFF_FFFF { break }
                guard fieldNames.indices.contains(field) else {
                    throw ModelError(.invalid, "field \(field) does not exist", location: path)
                }
                let name = tokens[fieldNames[field]]
                do throws(ModelError) {
                    spec.fields[name] = try value(fieldReps[field], depth: 0)
                } catch var error {
                    error.location = error.location ?? path + " " + name
                    throw error
                }
                index += 1
            }
            layer.specs[path] = spec
        }
        return layer
    }
}
