/// Bytes as a dictionary key that hashes them in bulk: `[UInt8]`'s own hashing combines one byte
/// at a time, which costs milliseconds for a picture of a few megabytes. Equal keys hold equal bytes
/// (two copies of one array compare without reading them).
struct ContentKey: Hashable {
    let bytes: [UInt8]

    func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }
}
