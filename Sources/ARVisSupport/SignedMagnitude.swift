extension Int {
    /// The integer of a sign and a magnitude, when it fits 64 bits (`-9223372036854775808` does):
    /// for readers that gather an integer's digits before its sign is applied.
    package init?(magnitude: UInt64, negative: Bool) {
        if negative {
            guard magnitude <= UInt64(Int.max) + 1 else { return nil }
            self = Int(truncatingIfNeeded: 0 &- magnitude)
        } else {
            guard let value = Int(exactly: magnitude) else { return nil }
            self = value
        }
    }
}
