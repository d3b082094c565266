import ARVisSupport

/// Reads USD's text format (`.usda`) into a ``USDLayer``: layer metadata, `def`/`over`/`class`
/// prims with their metadata, attributes (typed, `uniform`, with default values, `.connect`
/// targets and `.timeSamples`), relationships and their targets. Variant sets are skipped; every
/// error names its line.
struct USDAReader {
    private var tokens: USDATokenizer
    private var current: USDAToken
    private var layer = USDLayer()
    private(set) var warnings: [String] = []
    private static let maximumDepth = 256

    init(_ bytes: [UInt8]) throws(ModelError) {
        guard bytes.starts(with: Array("#usda ".utf8)) else {
            throw ModelError(.invalid, "not a USD text file: it does not start with #usda", location: "line 1")
        }
        tokens = USDATokenizer(bytes)
        current = USDAToken(kind: .end, line: 1)
        current = try tokens.next()
    }

    private func error(_ message: String) -> ModelError {
        ModelError(.invalid, message, location: "line \(current.line)")
    }

    private mutating func advance() throws(ModelError) { current = try tokens.next() }

    private mutating func expect(_ c: Character) throws(ModelError) {
        guard current.kind == .punctuation(c.asciiValue!) else { throw error("expected '\(c)' here") }
        try advance()
    }

    private func isPunctuation(_ c: Character) -> Bool { current.kind == .punctuation(c.asciiValue!) }

    private var identifier: String? {
        if case .identifier(let text) = current.kind { return text }
        return nil
    }

    mutating func read() throws(ModelError) -> USDLayer {
        var root = USDLayer.Spec(type: .pseudoRoot)
        if isPunctuation("(") { root.fields = try metadata(depth: 0) }
        var children: [String] = []
        while current.kind != .end {
            children.append(try prim(parent: "/", depth: 1))
        }
        root.fields["primChildren"] = .strings(children)
        layer.specs["/"] = root
        return layer
    }

    /// `def Mesh "Name" (metadata) { … }`; returns the prim's name.
    private mutating func prim(parent: String, depth: Int) throws(ModelError) -> String {
        guard depth <= Self.maximumDepth else { throw error("prims nest more than \(Self.maximumDepth) deep") }
        guard let keyword = identifier, ["def", "over", "class"].contains(keyword) else {
            throw error("expected def, over or class")
        }
        try advance()
        var spec = USDLayer.Spec(type: .prim)
        spec.fields["specifier"] = .number(keyword == "def" ? 0 : keyword == "over" ? 1 : 2)
        if let type = identifier {
            spec.fields["typeName"] = .token(type)
            try advance()
        }
        guard case .string(let name) = current.kind, !name.isEmpty, !name.contains("/"), !name.contains(".") else {
            throw error("expected the prim's name in quotes")
        }
        try advance()
        let path = parent == "/" ? "/" + name : parent + "/" + name
        guard layer.specs[path] == nil else { throw error("the prim \(path) is defined twice") }
        if isPunctuation("(") { spec.fields.merge(try metadata(depth: depth)) { _, new in new } }
        if spec.fields["references"] != nil || spec.fields["payload"] != nil || spec.fields["inherits"] != nil {
            warnings.append("\(path): references, payloads and inherits are not followed")
        }
        try expect("{")
        var children: [String] = []
        var properties: [String] = []
        while !isPunctuation("}") {
            guard current.kind != .end else { throw error("the prim \(path) is not closed with }") }
            if let word = identifier, ["def", "over", "class"].contains(word) {
                children.append(try prim(parent: path, depth: depth + 1))
            } else if identifier == "variantSet" {
                warnings.append("\(path): variant sets are not read")
                try skipVariantSet()
            } else if identifier == "reorder" {
                try advance()
                try skipStatement()
            } else if let name = try property(prim: path, depth: depth) {
                if !properties.contains(name) { properties.append(name) }
            }
        }
        try advance()
        spec.fields["primChildren"] = .strings(children)
        spec.fields["properties"] = .strings(properties)
        layer.specs[path] = spec
        return name
    }

    /// An attribute or relationship; returns its name.
    private mutating func property(prim: String, depth: Int) throws(ModelError) -> String? {
        var listOp: String?
        if let word = identifier, ["add", "prepend", "append", "delete"].contains(word) {
            listOp = word
            try advance()
        }
        var custom = false
        var uniform = false
        while let word = identifier, ["custom", "uniform", "varying", "config"].contains(word) {
            custom = custom || word == "custom"
            uniform = uniform || word == "uniform" || word == "config"
            try advance()
        }
        guard let typeWord = identifier else { throw error("expected an attribute, a relationship or a prim") }
        try advance()
        var type = typeWord
        if isPunctuation("[") {
            try advance()
            try expect("]")
            type += "[]"
        }
        guard var name = identifier else { throw error("expected the property's name after \(type)") }
        try advance()
        var suffix = ""
        for known in [".connect", ".timeSamples", ".default", ".spline"] where name.hasSuffix(known) {
            suffix = known
            name.removeLast(known.count)
        }
        let path = prim + "." + name
        let isRelationship = type == "rel"
        var spec = layer.specs[path] ?? USDLayer.Spec(type: isRelationship ? .relationship : .attribute)
        if !isRelationship { spec.fields["typeName"] = .token(type) }
        if uniform || isRelationship { spec.fields["variability"] = .number(1) }
        if custom { spec.fields["custom"] = .bool(true) }
        if isPunctuation("=") {
            try advance()
            let value = try self.value(depth: depth)
            switch (isRelationship, suffix) {
            case (true, _): spec.fields["targetPaths"] = value.strings.map { .paths($0) } ?? .paths([])
            case (false, ".connect"): spec.fields["connectionPaths"] = value.strings.map { .paths($0) } ?? .paths([])
            case (false, ".timeSamples"): spec.fields["timeSamples"] = value
            case (false, ".spline"): spec.fields["spline"] = .other
            default: spec.fields["default"] = Self.typed(value, type: type)
            }
        }
        if isPunctuation("(") { spec.fields.merge(try metadata(depth: depth)) { _, new in new } }
        if listOp == "delete" { return nil }
        layer.specs[path] = spec
        return name
    }

    /// Tokens and assets written as strings become tokens and assets by the declared type.
    private static func typed(_ value: USDValue, type: String) -> USDValue {
        switch (value, type) {
        case (.string(let text), "token"): .token(text)
        case (.numbers(let values, let width), _) where !type.hasSuffix("[]") && values.count == width: .vector(values)
        default: value
        }
    }

    /// `( key = value; prepend key = value; "doc" )` as fields.
    private mutating func metadata(depth: Int) throws(ModelError) -> [String: USDValue] {
        try expect("(")
        var fields: [String: USDValue] = [:]
        while !isPunctuation(")") {
            guard current.kind != .end else { throw error("metadata ( … is not closed") }
            if case .string(let text) = current.kind {
                fields["documentation"] = .string(text)
                try advance()
                continue
            }
            if isPunctuation(";") {
                try advance()
                continue
            }
            guard var key = identifier else { throw error("expected a metadata name") }
            try advance()
            if ["add", "prepend", "append", "delete", "reorder"].contains(key), let real = identifier {
                key = real
                try advance()
            }
            if isPunctuation("=") {
                try advance()
                fields[key] = try value(depth: depth + 1)
            }
        }
        try advance()
        return fields
    }

    /// A value: number, string, asset, path, identifier, tuple, list or dictionary.
    private mutating func value(depth: Int) throws(ModelError) -> USDValue {
        guard depth <= Self.maximumDepth else { throw error("values nest more than \(Self.maximumDepth) deep") }
        let kind = current.kind
        switch kind {
        case .number(let number):
            try advance()
            return .number(number)
        case .string(let text):
            try advance()
            return .string(text)
        case .asset(let text):
            try advance()
            return .asset(text)
        case .path(let text):
            try advance()
            return .paths([text])
        case .identifier(let word):
            try advance()
            switch word {
            case "true": return .bool(true)
            case "false": return .bool(false)
            case "None": return .other
            default: return .token(word)
            }
        case .punctuation(UInt8(ascii: "(")):
            let items = try sequence(close: ")", depth: depth)
            return .vector(Self.flatten(items))
        case .punctuation(UInt8(ascii: "[")):
            let items = try sequence(close: "]", depth: depth)
            return Self.list(items)
        case .punctuation(UInt8(ascii: "{")):
            return try dictionary(depth: depth)
        default:
            throw error("expected a value")
        }
    }

    private mutating func sequence(close: Character, depth: Int) throws(ModelError) -> [USDValue] {
        try advance()
        var items: [USDValue] = []
        while !isPunctuation(close) {
            items.append(try value(depth: depth + 1))
            if isPunctuation(",") {
                try advance()
            } else if !isPunctuation(close) {
                throw error("expected ',' or '\(close)'")
            }
        }
        try advance()
        return items
    }

    private static func flatten(_ items: [USDValue]) -> [Double] {
        items.flatMap { item -> [Double] in
            switch item {
            case .number(let value): [value]
            case .vector(let values): values
            default: []
            }
        }
    }

    private static func list(_ items: [USDValue]) -> USDValue {
        guard let first = items.first else { return .numbers([], width: 1) }
        switch first {
        case .number: return .numbers(flatten(items), width: 1)
        case .vector(let values): return .numbers(flatten(items), width: max(1, values.count))
        case .paths: return .paths(items.flatMap { $0.strings ?? [] })
        default: return .strings(items.compactMap(\.text))
        }
    }

    /// A dictionary (`{ string key = value }`) or time samples (`{ 0: value, 1: value }`).
    private mutating func dictionary(depth: Int) throws(ModelError) -> USDValue {
        try advance()
        var entries: [String: USDValue] = [:]
        var samples: [(time: Double, value: USDValue)] = []
        while !isPunctuation("}") {
            guard current.kind != .end else { throw error("a dictionary { … is not closed") }
            if case .number(let time) = current.kind {
                try advance()
                try expect(":")
                samples.append((time, try value(depth: depth + 1)))
            } else {
                if identifier == "dictionary" || identifier != nil { try advance() }  // the value's type
                if isPunctuation("[") {
                    try advance()
                    try expect("]")
                }
                let key: String
                switch current.kind {
                case .string(let text), .identifier(let text): key = text
                default: throw error("expected a dictionary key")
                }
                try advance()
                if isPunctuation("=") {
                    try advance()
                    entries[key] = try value(depth: depth + 1)
                }
            }
            if isPunctuation(",") || isPunctuation(";") { try advance() }
        }
        try advance()
        return samples.isEmpty ? .dictionary(entries) : .timeSamples(samples.sorted { $0.time < $1.time })
    }

    private mutating func skipVariantSet() throws(ModelError) {
        while !isPunctuation("{") {
            guard current.kind != .end else { throw error("a variantSet is not closed") }
            try advance()
        }
        try skipBraces()
    }

    private mutating func skipBraces() throws(ModelError) {
        var level = 0
        repeat {
            if isPunctuation("{") { level += 1 } else if isPunctuation("}") { level -= 1 }
            guard current.kind != .end else { throw error("a { … block is not closed") }
            try advance()
        } while level > 0
    }

    /// Skips `reorder nameChildren = [...]` and similar statements.
    private mutating func skipStatement() throws(ModelError) {
        try advance()
        if isPunctuation("=") {
            try advance()
            _ = try value(depth: 0)
        }
    }
}
