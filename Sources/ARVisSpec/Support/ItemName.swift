/// The names a project gives its specs, rooms and datasets: 1–100 ASCII letters, digits, `_` or `-`,
/// starting with a letter or digit (no dots, so `/s/{project}/{name}.json` is never ambiguous).
public enum ItemName {
    /// Whether `name` is one.
    public static func isValid(_ name: String) -> Bool {
        let bytes = name.utf8
        guard (1...100).contains(bytes.count), let first = bytes.first, first.isASCIIAlphanumeric else {
            return false
        }
        return bytes.allSatisfy { $0.isASCIIAlphanumeric || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }
    }
}

extension UInt8 {
    /// An ASCII letter or digit.
    fileprivate var isASCIIAlphanumeric: Bool {
        switch self {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default: false
        }
    }
}
