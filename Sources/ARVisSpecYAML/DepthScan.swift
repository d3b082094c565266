/// A cheap look at YAML text before Yams (whose composer recurses and expands aliases) sees it.
///
/// - Nesting: a line's depth is at most its indentation plus its leading `- ` markers plus the flow
///   brackets open at its end; the scan reports where that bound first exceeds a generous multiple of
///   the limit. The exact limit is enforced afterwards, while converting the composed tree.
/// - Aliases (`*name`): refused, because expanding them can make a small document exponentially large.
enum DepthScan {
    /// What the scan found first, with its byte offset.
    enum Finding: Equatable {
        case tooDeep(Int)
        case alias(Int)
    }

    static func scan(_ bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) -> Finding? {
        let ceiling = maximumDepth * 4 + 16
        var flowDepth = 0
        var index = 0
        var quote: UInt8?
        while index < bytes.count {
            let lineStart = index
            var indent = 0
            while index < bytes.count, bytes[index] == UInt8(ascii: " ") {
                indent += 1
                index += 1
            }
            while index + 1 < bytes.count, bytes[index] == UInt8(ascii: "-"), bytes[index + 1] == UInt8(ascii: " ") {
                indent += 2
                index += 2
            }
            var previous = UInt8(ascii: " ")
            // The last byte other than a space on this line; nil while the line's value has not started.
            var lastSignificant: UInt8?
            while index < bytes.count, bytes[index] != UInt8(ascii: "\n") {
                let byte = bytes[index]
                if let open = quote {
                    if byte == open { quote = nil }
                } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    quote = byte
                } else if byte == UInt8(ascii: "#"), previous == UInt8(ascii: " ") {
                    while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
                    break
                } else if byte == UInt8(ascii: "*"),
                    startsValue(after: lastSignificant, previous: previous, inFlow: flowDepth > 0)
                {
                    return .alias(index)
                } else if byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{") {
                    flowDepth += 1
                    if indent + flowDepth > ceiling { return .tooDeep(index) }
                } else if byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") {
                    flowDepth = max(0, flowDepth - 1)
                }
                previous = byte
                if byte != UInt8(ascii: " ") { lastSignificant = byte }
                index += 1
            }
            if indent + flowDepth > ceiling { return .tooDeep(lineStart) }
            index += 1
        }
        return nil
    }

    /// Whether a value can start here: at the start of a line, after `: `, or after `[`, `{`, `,` in flow.
    private static func startsValue(after last: UInt8?, previous: UInt8, inFlow: Bool) -> Bool {
        guard let last else { return true }
        if last == UInt8(ascii: ":") { return previous == UInt8(ascii: " ") }
        return inFlow && (last == UInt8(ascii: "[") || last == UInt8(ascii: "{") || last == UInt8(ascii: ","))
    }
}
