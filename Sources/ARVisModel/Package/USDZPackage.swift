import ARVisGraphics
import ARVisSupport

/// A USDZ package: an uncompressed zip archive whose first file is the root USD layer and whose
/// every file's data starts at a multiple of 64 bytes (the rules of Pixar's USDZ specification).
struct USDZPackage {
    /// One file of the package.
    struct Entry {
        var name: String
        var data: ArraySlice<UInt8>
    }

    /// The files, in the order they are stored (the first is the root layer).
    var entries: [Entry]

    /// Reads a package through its central directory, or by walking its local headers when the
    /// directory is missing or damaged, as usd-core does.
    /// - Throws: ``ModelError`` `invalid` for a file that is not a zip, `unsupported` for compressed
    ///   or encrypted entries, `truncated` when an entry runs past the end.
    init(reading bytes: [UInt8]) throws(ModelError) {
        guard bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) else {
            throw ModelError(
                .invalid, "not a USDZ package: it does not start with a zip file header", location: "byte 0")
        }
        let reader = BinaryReader(bytes, what: "the USDZ package")
        let offsets = (try? Self.centralDirectoryOffsets(reader)) ?? nil
        entries = []
        if let offsets {
            for offset in offsets { entries.append(try Self.entry(at: offset, reader).entry) }
        } else {
            var offset = 0
            while offset + 4 <= bytes.count, try reader.load(UInt32.self, at: offset) == 0x0403_4B50 {
                let (entry, end) = try Self.entry(at: offset, reader)
                entries.append(entry)
                offset = end
            }
        }
        guard !entries.isEmpty else { throw ModelError(.invalid, "the USDZ package holds no file") }
    }

    /// The local-header offsets the central directory lists, or `nil` without a usable one.
    private static func centralDirectoryOffsets(_ reader: BinaryReader) throws(ModelError) -> [Int]? {
        let bytes = reader.bytes
        guard bytes.count >= 22 else { return nil }
        var end = bytes.count - 22
        let lowest = max(0, bytes.count - 22 - 65_535)
        while end >= lowest, try reader.load(UInt32.self, at: end) != 0x0605_4B50 { end -= 1 }
        guard end >= lowest else { return nil }
        let count = Int(try reader.load(UInt16.self, at: end + 10))
        var offset = Int(try reader.load(UInt32.self, at: end + 16))
        var offsets: [Int] = []
        for _ in 0..<count {
            guard try reader.load(UInt32.self, at: offset) == 0x0201_4B50 else { return nil }
            let nameLength = Int(try reader.load(UInt16.self, at: offset + 28))
            let extraLength = Int(try reader.load(UInt16.self, at: offset + 30))
            let commentLength = Int(try reader.load(UInt16.self, at: offset + 32))
            offsets.append(Int(try reader.load(UInt32.self, at: offset + 42)))
            offset += 46 + nameLength + extraLength + commentLength
        }
        return offsets.sorted()
    }

    /// The entry whose local header is at `offset`, and the offset just past its data.
    private static func entry(at offset: Int, _ reader: BinaryReader) throws(ModelError) -> (entry: Entry, end: Int) {
        let location = "zip entry at byte \(offset)"
        guard try reader.load(UInt32.self, at: offset) == 0x0403_4B50 else {
            throw ModelError(.invalid, "no zip file header where the directory says one is", location: location)
        }
        let flags = try reader.load(UInt16.self, at: offset + 6)
        let method = try reader.load(UInt16.self, at: offset + 8)
        let size = Int(try reader.load(UInt32.self, at: offset + 22))
        let nameLength = Int(try reader.load(UInt16.self, at: offset + 26))
        let extraLength = Int(try reader.load(UInt16.self, at: offset + 28))
        try reader.require(nameLength, at: offset + 30)
        let name = String(decoding: reader.bytes[offset + 30..<offset + 30 + nameLength], as: UTF8.self)
        guard flags & 0x1 == 0 else { throw ModelError(.unsupported, "'\(name)' is encrypted", location: location) }
        guard method == 0 else {
            throw ModelError(
                .unsupported, "'\(name)' is compressed; a USDZ package stores its files uncompressed",
                location: location)
        }
        guard flags & 0x8 == 0 else {
            throw ModelError(
                .unsupported, "'\(name)' has its size after its data (a streamed zip); USDZ needs sizes in the header",
                location: location)
        }
        let start = offset + 30 + nameLength + extraLength
        try reader.require(size, at: start)
        return (Entry(name: name, data: reader.bytes[start..<start + size]), start + size)
    }

    /// A package of `files` in this order (the root layer first), stored, with every file's data at
    /// a multiple of 64 bytes and a central directory whose entries repeat the padding.
    /// - Throws: ``ModelError`` `tooLarge` past what a zip without ZIP64 holds: 65 535 files, names
    ///   of 65 535 bytes, 4 GiB in all.
    static func write(_ files: [(name: String, data: [UInt8])]) throws(ModelError) -> [UInt8] {
        guard files.count <= Int(UInt16.max) else {
            throw ModelError(.tooLarge, "the USDZ would hold \(files.count) files; a zip without ZIP64 holds 65 535")
        }
        if let long = files.first(where: { $0.name.utf8.count > Int(UInt16.max) }) {
            throw ModelError(
                .tooLarge, "a USDZ file's name of \(long.name.utf8.count) bytes passes the 65 535 a zip holds")
        }
        let total = files.reduce(22) { $0 + 30 + 46 + 2 * ($1.name.utf8.count + 68) + $1.data.count }
        guard total < Int(UInt32.max) else {
            throw ModelError(.tooLarge, "the USDZ would pass the 4 GiB a zip without ZIP64 can hold")
        }
        var out = BinaryWriter()
        var directory = BinaryWriter()
        // 1 January 2026, 00:00: a fixed time keeps the output deterministic.
        let time: UInt16 = 0
        let date: UInt16 = UInt16((2026 - 1980) << 9 | 1 << 5 | 1)
        for file in files {
            let name = Array(file.name.utf8)
            let headerOffset = out.bytes.count
            let dataStart = headerOffset + 30 + name.count
            var padding = (64 - dataStart % 64) % 64
            if padding > 0 && padding < 4 { padding += 64 }
            var extra: [UInt8] = []
            if padding > 0 {
                extra =
                    [0x86, 0x19, UInt8((padding - 4) & 0xFF), UInt8((padding - 4) >> 8)]
                    + [UInt8](repeating: 0, count: padding - 4)
            }
            let crc = PNGEncoder.crc32(file.data)
            func header(_ writer: inout BinaryWriter, central: Bool) {
                writer.write(UInt32(central ? 0x0201_4B50 : 0x0403_4B50))
                if central { writer.write(UInt16(0)) }
                writer.write(UInt16(10))
                writer.write(UInt16(0))
                writer.write(UInt16(0))
                writer.write(time)
                writer.write(date)
                writer.write(crc)
                writer.write(UInt32(file.data.count))
                writer.write(UInt32(file.data.count))
                writer.write(UInt16(name.count))
                writer.write(UInt16(extra.count))
                if central {
                    writer.write(UInt16(0))
                    writer.write(UInt16(0))
                    writer.write(UInt16(0))
                    writer.write(UInt32(0))
                    writer.write(UInt32(headerOffset))
                }
                writer.bytes += name
                writer.bytes += extra
            }
            header(&out, central: false)
            out.bytes += file.data
            header(&directory, central: true)
        }
        let directoryOffset = out.bytes.count
        out.bytes += directory.bytes
        out.write(UInt32(0x0605_4B50))
        out.write(UInt16(0))
        out.write(UInt16(0))
        out.write(UInt16(files.count))
        out.write(UInt16(files.count))
        out.write(UInt32(directory.bytes.count))
        out.write(UInt32(directoryOffset))
        out.write(UInt16(0))
        return out.bytes
    }
}
