public import ARVisSpec
import Yams

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// The ARVis document tree (Yams has a `Node` of its own).
typealias SpecNode = ARVisSpec.Node

/// Reads spec documents written in YAML into the same model and diagnostics as JSON.
///
/// Plain scalars are typed by YAML's core schema (`true`, `12`, `1.5`, `null`); dates stay text.
/// Anchors and aliases are refused, so a document cannot expand exponentially.
///
/// ```swift
/// let result = YAMLSpecReader.read(yaml: data, file: "museum.yaml")
/// ```
public enum YAMLSpecReader {
    /// Reads a YAML document, reporting every problem with its line and column.
    public static func read(yaml data: Data, file: String? = nil, options: ReadOptions = ReadOptions()) -> ReadResult {
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            let bytes = raw.bindMemory(to: UInt8.self)
            let text = SourceText(Array(bytes))
            let (root, diagnostics) = parse(bytes, text: text, maximumDepth: options.maximumDepth)
            return SpecReader.read(root: root, diagnostics: diagnostics, text: text, file: file, options: options)
        }
    }

    /// Reads YAML and returns the document, or throws the first error with all diagnostics attached.
    public static func decode(_ data: Data, file: String? = nil, options: ReadOptions = ReadOptions()) throws(SpecError)
        -> SpecDocument
    {
        let result = read(yaml: data, file: file, options: options)
        guard let document = result.document else { throw SpecError(diagnostics: result.diagnostics) }
        return document
    }

    private static let resolver = Resolver.default.removing(.timestamp).removing(.merge).removing(.value)

    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, text: SourceText, maximumDepth: Int) -> (
        SpecNode?, [PendingDiagnostic]
    ) {
        guard let string = String(validating: bytes, as: UTF8.self) else {
            let bad = UTF8Validation.firstInvalidOffset(in: bytes)
            return (
                nil,
                [
                    PendingDiagnostic(
                        .error, .encoding, offset: bad, path: "", message: "the file is not valid UTF-8",
                        hint: "save it as UTF-8")
                ]
            )
        }
        switch DepthScan.scan(bytes, maximumDepth: maximumDepth) {
        case .tooDeep(let offset): return (nil, [.depthLimit(at: offset, maximumDepth: maximumDepth)])
        case .alias(let offset): return (nil, [aliasError(at: offset)])
        case nil: break
        }
        let composed: Yams.Node?
        do {
            composed = try Yams.compose(yaml: string, resolver)
        } catch {
            return (nil, [syntaxError(error, text)])
        }
        guard let composed else {
            return (
                nil,
                [
                    PendingDiagnostic(
                        .error, .syntax, offset: 0, path: "", message: "the document is empty",
                        hint: "a spec is a mapping such as vStack: {…}")
                ]
            )
        }
        var converter = NodeConverter(text: text, maximumDepth: maximumDepth)
        let root = converter.convert(composed, depth: 0)
        return (converter.failure == nil ? root : nil, converter.warnings + (converter.failure.map { [$0] } ?? []))
    }

    static func aliasError(at offset: Int) -> PendingDiagnostic {
        PendingDiagnostic(
            .error, .syntax, offset: offset, path: "", message: "YAML aliases are not supported",
            hint: "write the value out in full; aliases can make a small document arbitrarily large")
    }

    private static func syntaxError(_ error: any Error, _ text: SourceText) -> PendingDiagnostic {
        let (problem, mark): (String, Mark?) =
            switch error as? YamlError {
            case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _),
                .composer(_, let problem, let mark, _):
                (problem, mark)
            case .reader(let problem, _, _, _): (problem, nil)
            default: (String(describing: error), nil)
            }
        let offset = mark.map { text.offset(line: $0.line, column: $0.column) } ?? 0
        return PendingDiagnostic(.error, .syntax, offset: offset, path: "", message: "YAML: \(problem)")
    }
}

/// Turns Yams nodes into ARVis nodes with byte offsets, enforcing the depth limit and refusing aliases.
private struct NodeConverter {
    let text: SourceText
    let maximumDepth: Int
    var failure: PendingDiagnostic?
    /// Problems that leave the value usable (integers too large for 64 bits).
    var warnings: [PendingDiagnostic] = []

    init(text: SourceText, maximumDepth: Int) {
        self.text = text
        self.maximumDepth = maximumDepth
    }

    mutating func convert(_ node: Yams.Node, depth: Int) -> SpecNode {
        let offset = node.mark.map { text.offset(line: $0.line, column: $0.column) } ?? 0
        guard failure == nil else { return SpecNode(.null, offset: offset) }
        switch node {
        case .scalar(let scalar):
            var kind = scalarKind(node, scalar, offset)
            if case .string(let value) = kind, !value.hasPrefix("\u{FEFF}"), startsWithByteOrderMark(scalar, at: offset)
            {
                // Yams drops a U+FEFF that begins a scalar, as it would a file's byte order mark.
                kind = .string("\u{FEFF}" + value)
            }
            return SpecNode(kind, offset: offset)
        case .sequence(let sequence):
            guard depth < maximumDepth else {
                failure = .depthLimit(at: offset, maximumDepth: maximumDepth)
                return SpecNode(.null, offset: offset)
            }
            return SpecNode(.array(sequence.map { convert($0, depth: depth + 1) }), offset: offset)
        case .mapping(let mapping):
            guard depth < maximumDepth else {
                failure = .depthLimit(at: offset, maximumDepth: maximumDepth)
                return SpecNode(.null, offset: offset)
            }
            var members: [SpecNode.Member] = []
            for (key, value) in mapping {
                let keyOffset = key.mark.map { text.offset(line: $0.line, column: $0.column) } ?? offset
                guard let keyText = key.scalar?.string else {
                    failure = PendingDiagnostic(
                        .error, .typeMismatch, offset: keyOffset, path: "",
                        message:
                            "mapping keys must be plain text, found a \(key.sequence != nil ? "sequence" : "mapping")")
                    return SpecNode(.null, offset: offset)
                }
                if members.contains(where: { $0.key == keyText }) {
                    failure = PendingDiagnostic(
                        .error, .duplicateKey, offset: keyOffset, path: "", message: "duplicate key \"\(keyText)\"",
                        hint: "keep one of them")
                }
                members.append(
                    SpecNode.Member(key: keyText, keyOffset: keyOffset, value: convert(value, depth: depth + 1)))
            }
            return SpecNode(.object(members), offset: offset)
        case .alias:
            failure = YAMLSpecReader.aliasError(at: offset)
            return SpecNode(.null, offset: offset)
        }
    }

    /// Whether the scalar's source text at `offset` begins with U+FEFF, written or escaped.
    private func startsWithByteOrderMark(_ scalar: Yams.Node.Scalar, at offset: Int) -> Bool {
        let quote = scalar.style == .doubleQuoted || scalar.style == .singleQuoted ? 1 : 0
        let head = Array(text.bytes(at: offset + quote, count: 10))
        if head.starts(with: [0xEF, 0xBB, 0xBF]) { return true }
        // A double-quoted escape: \uFEFF or \U0000FEFF, in either case.
        guard scalar.style == .doubleQuoted, head.count >= 6, head[0] == UInt8(ascii: "\\"),
            head[1] | 0x20 == UInt8(ascii: "u")
        else { return false }
        let digits = head[1] == UInt8(ascii: "u") ? head[2..<6] : head.count >= 10 ? head[2..<10] : []
        return UInt32(String(decoding: digits, as: UTF8.self), radix: 16) == 0xFEFF
    }

    private mutating func scalarKind(_ node: Yams.Node, _ scalar: Yams.Node.Scalar, _ offset: Int) -> SpecNode.Kind {
        switch node.tag {
        case Tag(.null): return .null
        case Tag(.bool): return node.bool.map(SpecNode.Kind.bool) ?? .string(scalar.string)
        case Tag(.int):
            guard let number = YAMLInteger.read(scalar.string) else { return .string(scalar.string) }
            if let exact = number.exact { return .int(exact) }
            guard number.approximate.isFinite else { return outOfRange(scalar.string, at: offset) }
            warnings.append(
                PendingDiagnostic(
                    .warning, .inexactNumber, offset: offset, path: "",
                    message: "the integer \(scalar.string) does not fit 64 bits and is read as \(number.approximate)",
                    hint: "write it as a string to keep every digit"))
            return .double(number.approximate)
        case Tag(.float):
            // Yams reads no quoted scalar as a number, but an explicit tag makes one a float
            // (`!!float "1.5"` is 1.5, as in other YAML readers).
            guard let value = Double.construct(from: Yams.Node.Scalar(scalar.string, scalar.tag, .plain)) else {
                return .string(scalar.string)
            }
            guard value.isFinite else { return outOfRange(scalar.string, at: offset) }
            return .double(value)
        default: return .string(scalar.string)
        }
    }

    /// Fails on a number no 64-bit float holds (`.inf`, an integer of 400 digits).
    private mutating func outOfRange(_ number: String, at offset: Int) -> SpecNode.Kind {
        failure = PendingDiagnostic(
            .error, .numberOutOfRange, offset: offset, path: "", message: "the number \(number) is out of range",
            hint: "numbers must be finite and fit a 64-bit float (about ±1.8e308)")
        return .null
    }
}
