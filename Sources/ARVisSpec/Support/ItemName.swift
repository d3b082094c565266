/// The names a project gives its specs, rooms and datasets: 1–100 ASCII letters, digits, `_` or `-`,
/// starting with a letter or digit (no dots, so `/s/{project}/{name}.json` is never ambiguous).
public enum ItemName {
    /// Whether `name` is one.
    public static func isValid(_ name: String) -> Bool {
        let scalars = Array(name.unicodeScalars)
        guard (1...100).contains(scalars.count), let first = scalars.first, first.isASCIIAlphanumeric else {
            return false
        }
        return scalars.allSatisfy { $0.isASCIIAlphanumeric || $0 == "_" || $0 == "-" }
    }
}

extension Unicode.Scalar {
    /// An ASCII letter or digit.
    fileprivate var isASCIIAlphanumeric: Bool {
        isASCII && (properties.isAlphabetic || ("0"..."9").contains(self))
    }
}
