extension Int {
    /// `value` rounded toward zero, clamped to ±2⁶² (NaN becomes 0): a conversion that cannot trap,
    /// for coordinates and counts computed from numbers that came from outside.
    package init(saturating value: Double) {
        guard !value.isNaN else {
            self = 0
            return
        }
        let limit = Double(1 << 62)
        self = Int(Swift.min(Swift.max(value, -limit), limit))
    }
}
