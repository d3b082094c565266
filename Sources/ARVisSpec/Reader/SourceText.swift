/// Maps byte offsets in a source to 1-based line and column numbers.
///
/// Built only when a diagnostic needs a location, so a clean load never pays for it. Columns count
/// Unicode scalars from the start of the line, so they match what an editor shows for UTF-8 text.
package struct SourceText: Sendable {
    private let bytes: [UInt8]
    private let lineStarts: [Int]

    package init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var starts = [0]
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
            starts.append(index + 1)
        }
        self.lineStarts = starts
    }

    /// The line and column of `offset`; offsets past the end map to the end of the text.
    package func lineAndColumn(of offset: Int) -> (line: Int, column: Int) {
        let offset = max(0, min(offset, bytes.count))
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        // A scalar starts at every byte that is not a UTF-8 continuation byte.
        let scalarsBefore = bytes[lineStarts[low]..<offset].lazy.filter { $0 & 0xC0 != 0x80 }.count
        let column = scalarsBefore + 1
        return (low + 1, column)
    }

    /// The byte offset of a 1-based line and column (used by the YAML reader).
    package func offset(line: Int, column: Int) -> Int {
        guard line >= 1 else { return 0 }
        guard line <= lineStarts.count else { return bytes.count }
        var index = lineStarts[line - 1]
        var remaining = column - 1
        while remaining > 0, index < bytes.count, bytes[index] != UInt8(ascii: "\n") {
            index += 1
            while index < bytes.count, bytes[index] & 0xC0 == 0x80 { index += 1 }
            remaining -= 1
        }
        return index
    }
}
