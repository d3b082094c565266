/// A cheap bound on YAML nesting, checked before Yams (whose composer recurses) sees the text.
///
/// A line's depth is at most its indentation plus its leading `- ` markers plus the flow brackets
/// open at its end; the scan reports where that bound first exceeds a generous multiple of the limit.
/// The exact limit is enforced afterwards, while converting the composed tree.
enum DepthScan {
    static func firstOffsetBeyond(_ maximumDepth: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let ceiling = maximumDepth * 4 + 16
        var flowDepth = 0
        var index = 0
        var quote: UInt8?
        while index < bytes.count {
            let lineStart = index
            var indent = 0
            while index < bytes.count, bytes[index] == UInt8(ascii: " ") { indent += 1; index += 1 }
            while index + 1 < bytes.count, bytes[index] == UInt8(ascii: "-"), bytes[index + 1] == UInt8(ascii: " ") {
                indent += 2
                index += 2
            }
            while index < bytes.count, bytes[index] != UInt8(ascii: "\n") {
                let byte = bytes[index]
                if let open = quote {
                    if byte == open { quote = nil }
                } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    quote = byte
                } else if byte == UInt8(ascii: "#") {
                    while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
                    break
                } else if byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{") {
                    flowDepth += 1
                    if indent + flowDepth > ceiling { return index }
                } else if byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") {
                    flowDepth = max(0, flowDepth - 1)
                }
                index += 1
            }
            if indent + flowDepth > ceiling { return lineStart }
            index += 1
        }
        return nil
    }
}
