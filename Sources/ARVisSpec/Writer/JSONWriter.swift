/// Writes a ``Node`` tree as JSON text: canonical (two-space indent, keys in the order given) or compact.
package enum JSONWriter {
    /// The JSON text of `node`; `pretty` gives one member per line with two-space indentation.
    package static func write(_ node: Node, pretty: Bool) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(4096)
        write(node, pretty: pretty, indent: 0, into: &output)
        if pretty { output.append(UInt8(ascii: "\n")) }
        return String(decoding: output, as: UTF8.self)
    }

    private static func write(_ node: Node, pretty: Bool, indent: Int, into output: inout [UInt8]) {
        switch node.kind {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let value): output.append(contentsOf: (value ? "true" : "false").utf8)
        case .int(let value): output.append(contentsOf: String(value).utf8)
        case .double(let value): output.append(contentsOf: numberText(value).utf8)
        case .string(let text): writeString(text, into: &output)
        case .array(let elements):
            writeContainer(elements, open: "[", close: "]", pretty: pretty, indent: indent, into: &output) {
                element, output in
                write(element, pretty: pretty, indent: indent + 1, into: &output)
            }
        case .object(let members):
            writeContainer(members, open: "{", close: "}", pretty: pretty, indent: indent, into: &output) {
                member, output in
                writeString(member.key, into: &output)
                output.append(contentsOf: (pretty ? ": " : ":").utf8)
                write(member.value, pretty: pretty, indent: indent + 1, into: &output)
            }
        }
    }

    private static func writeContainer<Item>(
        _ items: [Item], open: Unicode.Scalar, close: Unicode.Scalar, pretty: Bool, indent: Int,
        into output: inout [UInt8], item writeItem: (Item, inout [UInt8]) -> Void
    ) {
        output.append(UInt8(ascii: open))
        // Arrays of scalars stay on one line: data columns and vectors read better that way.
        let inline = !pretty || items.isEmpty || (items as? [Node])?.allSatisfy(\.isScalar) == true
        for (index, item) in items.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            if inline {
                if pretty && index > 0 { output.append(UInt8(ascii: " ")) }
            } else {
                newline(indent + 1, into: &output)
            }
            writeItem(item, &output)
        }
        if !inline { newline(indent, into: &output) }
        output.append(UInt8(ascii: close))
    }

    private static func newline(_ indent: Int, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\n"))
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * 2))
    }

    /// The shortest text that reads back as the same double, always marked as a real number.
    package static func numberText(_ value: Double) -> String {
        let text = value.description
        if text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) { return text }
        return text + ".0"
    }

    private static func writeString(_ text: String, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: "\\\"".utf8)
            case UInt8(ascii: "\\"): output.append(contentsOf: "\\\\".utf8)
            case 0x0A: output.append(contentsOf: "\\n".utf8)
            case 0x0D: output.append(contentsOf: "\\r".utf8)
            case 0x09: output.append(contentsOf: "\\t".utf8)
            case 0..<0x20:
                let hex = String(byte, radix: 16, uppercase: true)
                output.append(contentsOf: "\\u\(String(repeating: "0", count: 4 - hex.count))\(hex)".utf8)
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}

extension Node {
    /// Whether this is a scalar (not an array or object).
    package var isScalar: Bool {
        switch kind {
        case .array, .object: false
        default: true
        }
    }

    /// Compact JSON text of this node, for messages.
    package var compactText: String { JSONWriter.write(self, pretty: false) }
}
