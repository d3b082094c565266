/// An IPv4 or IPv6 address, and whether it belongs to the public internet.
///
/// Reads every spelling a resolver accepts for IPv4 (`127.0.0.1`, `127.1`, `2130706433`,
/// `0x7f.0.0.1`, `0177.0.0.1`) and the IPv6 text forms (`::1`, `[::ffff:127.0.0.1]`, zones
/// such as `fe80::1%eth0`), so a literal cannot hide a private address from the check.
///
/// ```swift
/// IPAddress("169.254.169.254")?.isPublic   // false: link-local
/// IPAddress("93.184.215.14")?.isPublic     // true
/// ```
public struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    /// The address's bytes in network order: 4 for IPv4, 16 for IPv6.
    public let bytes: [UInt8]

    /// Creates an address from its 4 or 16 bytes.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// Reads an address literal, IPv4 in any resolver spelling or IPv6 with or without brackets.
    public init?(_ text: String) {
        var literal = Substring(text)
        if literal.hasPrefix("["), literal.hasSuffix("]") { literal = literal.dropFirst().dropLast() }
        if let zone = literal.firstIndex(of: "%") { literal = literal[..<zone] }
        guard let bytes = literal.contains(":") ? Self.ipv6(literal) : Self.ipv4(literal) else { return nil }
        self.bytes = bytes
    }

    /// Whether the address is on the public internet: not loopback, private, link-local, multicast,
    /// shared (carrier-grade NAT), reserved, documentation or unspecified, also when an IPv4
    /// address is embedded in an IPv6 one (mapped, compatible, NAT64, 6to4).
    public var isPublic: Bool {
        if let embedded = embeddedIPv4 { return embedded.isPublic }
        return !Self.nonPublicNetworks.contains { $0.contains(self) }
    }

    /// The IPv4 address an IPv6 address carries (`::ffff:a.b.c.d`, `::a.b.c.d`, `64:ff9b::a.b.c.d`, `2002:aabb:ccdd::`).
    var embeddedIPv4: IPAddress? {
        guard bytes.count == 16 else { return nil }
        let mapped = bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF
        // IPv4-compatible (::a.b.c.d), but not :: or ::1, whose first three IPv4 bytes are zero.
        let compatible = bytes[0..<12].allSatisfy { $0 == 0 } && !bytes[12..<15].allSatisfy { $0 == 0 }
        let nat64 = bytes[0..<12] == [0x00, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0]
        if mapped || compatible || nat64 { return IPAddress(bytes: Array(bytes[12..<16])) }
        if bytes[0] == 0x20, bytes[1] == 0x02 { return IPAddress(bytes: Array(bytes[2..<6])) }
        return nil
    }

    /// The networks that are not the public internet (RFC 6890 and its successors).
    static let nonPublicNetworks: [IPNetwork] = [
        "0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12", "192.0.0.0/24",
        "192.0.2.0/24", "192.88.99.0/24", "192.168.0.0/16", "198.18.0.0/15", "198.51.100.0/24", "203.0.113.0/24",
        "224.0.0.0/4", "240.0.0.0/4",
        "::/128", "::1/128", "100::/64", "2001::/23", "2001:db8::/32", "fc00::/7", "fe80::/10", "fec0::/10", "ff00::/8",
    ].compactMap(IPNetwork.init)

    /// The conventional text form (IPv6 without zero compression).
    public var description: String {
        if bytes.count == 4 { return bytes.map(String.init).joined(separator: ".") }
        return stride(from: 0, to: 16, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
            .joined(separator: ":")
    }

    /// IPv4 as `inet_aton` reads it: one to four parts, each decimal, octal (leading 0) or hex (0x).
    private static func ipv4(_ text: Substring) -> [UInt8]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...4).contains(parts.count) else { return nil }
        var values: [UInt64] = []
        for part in parts {
            guard let value = number(part) else { return nil }
            values.append(value)
        }
        let last = values.removeLast()
        guard values.allSatisfy({ $0 <= 0xFF }), last < (UInt64(1) << (8 * UInt64(4 - values.count))) else {
            return nil
        }
        var bytes = values.map { UInt8($0) }
        for shift in stride(from: 8 * (3 - values.count), through: 0, by: -8) {
            bytes.append(UInt8(truncatingIfNeeded: last >> UInt64(shift)))
        }
        return bytes
    }

    private static func number(_ part: Substring) -> UInt64? {
        guard !part.isEmpty, part.count <= 12 else { return nil }
        if part.lowercased().hasPrefix("0x") { return part.count == 2 ? 0 : UInt64(part.dropFirst(2), radix: 16) }
        if part.count > 1, part.hasPrefix("0") { return UInt64(part.dropFirst(), radix: 8) }
        return UInt64(part, radix: 10)
    }

    /// IPv6 text: up to eight groups, one `::`, an optional dotted IPv4 tail.
    private static func ipv6(_ text: Substring) -> [UInt8]? {
        var halves = [text]
        if let gap = text.firstRange(of: "::") {
            halves = [text[..<gap.lowerBound], text[gap.upperBound...]]
            guard !halves[1].contains("::") else { return nil }
        }
        func groups(_ half: Substring) -> [UInt8]? {
            guard !half.isEmpty else { return [] }
            var bytes: [UInt8] = []
            let pieces = half.split(separator: ":", omittingEmptySubsequences: false)
            for (index, piece) in pieces.enumerated() {
                if index == pieces.count - 1, piece.contains(".") {
                    guard let tail = ipv4(piece), piece.split(separator: ".").count == 4 else { return nil }
                    bytes += tail
                } else {
                    guard (1...4).contains(piece.count), let value = UInt16(piece, radix: 16) else { return nil }
                    bytes += [UInt8(value >> 8), UInt8(value & 0xFF)]
                }
            }
            return bytes
        }
        guard let head = groups(halves[0]) else { return nil }
        if halves.count == 1 { return head.count == 16 ? head : nil }
        guard let tail = groups(halves[1]), head.count + tail.count <= 14 else { return nil }
        return head + [UInt8](repeating: 0, count: 16 - head.count - tail.count) + tail
    }
}

/// A block of addresses written as `address/prefix-length`, such as `10.0.0.0/8` or `fe80::/10`.
public struct IPNetwork: Sendable, Hashable, CustomStringConvertible {
    /// The first address of the block.
    public let address: IPAddress
    /// How many leading bits every address of the block shares with ``address``.
    public let prefixLength: Int

    /// Reads `address/length`; a bare address is a block of one.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1)
        guard let first = parts.first, let address = IPAddress(String(first)) else { return nil }
        let bits = address.bytes.count * 8
        let length = parts.count == 2 ? Int(parts[1]) : bits
        guard let length, (0...bits).contains(length) else { return nil }
        self.address = address
        self.prefixLength = length
    }

    /// Whether `candidate` is in the block (an IPv4 address is never in an IPv6 block, nor the reverse).
    public func contains(_ candidate: IPAddress) -> Bool {
        guard candidate.bytes.count == address.bytes.count else { return false }
        var remaining = prefixLength
        for (mine, theirs) in zip(address.bytes, candidate.bytes) where remaining > 0 {
            let mask: UInt8 = remaining >= 8 ? 0xFF : ~(0xFF >> UInt8(remaining))
            if mine & mask != theirs & mask { return false }
            remaining -= 8
        }
        return true
    }

    /// `address/length`.
    public var description: String { "\(address)/\(prefixLength)" }
}
