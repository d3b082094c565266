/// Maps byte offsets in a source to 1-based line and column numbers.
///
/// Built only when a diagnostic needs a location, so a clean load never pays for it. Columns count
/// Unicode scalars from the start of the line, so they match what an editor shows for UTF-8 text.
package struct SourceText: Sendable {
    private let bytes: [UInt8]
    private let lineStarts: [Int]

    /// Up to `count` bytes of the source from `offset`.
    package func bytes(at offset: Int, count: Int) -> ArraySlice<UInt8> {
        guard offset >= 0, offset < bytes.count else { return [] }
        return bytes[offset..<min(bytes.count, offset + count)]
    }

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

    /// The line and column of each of `offsets`, in one forward pass over the text, so reporting many
    /// problems on one long line costs the line's length once, not once per problem.
    package func lineAndColumn(ofEach offsets: [Int]) -> [(line: Int, column: Int)] {
        var results = [(line: Int, column: Int)](repeating: (1, 1), count: offsets.count)
        var line = 0
        var position = 0
        var column = 1
        for index in offsets.indices.sorted(by: { offsets[$0] < offsets[$1] }) {
            let target = max(0, min(offsets[index], bytes.count))
            while line + 1 < lineStarts.count, lineStarts[line + 1] <= target {
                line += 1
                position = lineStarts[line]
                column = 1
            }
            while position < target {
                if bytes[position] & 0xC0 != 0x80 { column += 1 }
                position += 1
            }
            results[index] = (line + 1, column)
        }
        return results
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
