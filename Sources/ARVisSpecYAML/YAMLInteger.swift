import ARVisSupport

/// Reads YAML 1.1 integers, the forms Yams's resolver tags `!!int`: decimal (`-1_000`), hexadecimal
/// (`0x1F`), octal (`0o17`, `017`), binary (`0b101`) and base 60 (`1:30:00` is 5 400).
///
/// The reader reads them itself, not through Yams: Yams's base-60 reading traps when it overflows
/// (found by fuzzing, docs/fuzzing.md), and Yams reads no quoted scalar, though an explicit tag makes
/// one an integer (`!!int "12"` is 12, as in other YAML readers).
enum YAMLInteger {
    /// The integer `text` spells: exact when it fits 64 bits, and always as a float: the nearest one
    /// below 2⁶⁴ and for decimal and hexadecimal digits; past 2⁶⁴, octal, binary and base-60 digits
    /// are summed in floats, within a few units of the last place of the nearest. `nil` when `text`
    /// is no integer.
    static func read(_ text: String) -> (exact: Int?, approximate: Double)? {
        let bytes = Array(text.utf8.lazy.filter { $0 != UInt8(ascii: "_") })
        var rest = bytes[...]
        let negative = rest.first == UInt8(ascii: "-")
        if negative || rest.first == UInt8(ascii: "+") { rest = rest.dropFirst() }
        var number = Digits()
        if rest.contains(UInt8(ascii: ":")) {
            for component in rest.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false) {
                guard let part = Digits(component, radix: 10) else { return nil }
                number.append(part, radix: 60)
            }
        } else {
            let (radix, digits) = radixAndDigits(rest)
            guard let whole = Digits(digits, radix: radix) else { return nil }
            number = whole
            if number.magnitude == nil, radix == 10 || radix == 16 {
                // Past 64 bits: Swift's own parser rounds these to the nearest float.
                let spelled = (radix == 16 ? "0x" : "") + String(decoding: digits, as: UTF8.self)
                number.approximate = Double(spelled) ?? number.approximate
            }
        }
        return number.value(negative: negative)
    }

    /// The radix of an integer's digits, from their prefix (`0x`, `0o`, `0b`, or a leading `0` for
    /// octal), and the digits after it.
    private static func radixAndDigits(_ text: ArraySlice<UInt8>) -> (Int, ArraySlice<UInt8>) {
        for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] where text.starts(with: prefix.utf8) {
            return (radix, text.dropFirst(2))
        }
        return text.count > 1 && text.first == UInt8(ascii: "0") ? (8, text.dropFirst()) : (10, text)
    }

    /// An integer read digit by digit: its magnitude exactly while it fits 64 bits, and as a float.
    private struct Digits {
        var magnitude: UInt64? = 0
        var approximate = 0.0

        init() {}

        private init(single digit: Int) {
            magnitude = UInt64(digit)
            approximate = Double(digit)
        }

        /// Reads `digits` in `radix`: at least one, each an ASCII digit of the radix.
        init?(_ digits: ArraySlice<UInt8>, radix: Int) {
            guard !digits.isEmpty else { return nil }
            for byte in digits {
                guard let digit = Self.digit(byte), digit < radix else { return nil }
                append(Digits(single: digit), radix: radix)
            }
        }

        /// Appends one digit (for base 60, one component) in `radix`.
        mutating func append(_ digit: Digits, radix: Int) {
            approximate = approximate * Double(radix) + digit.approximate
            guard let value = magnitude, let low = digit.magnitude else {
                magnitude = nil
                return
            }
            let (shifted, overflow) = value.multipliedReportingOverflow(by: UInt64(radix))
            let (sum, carry) = shifted.addingReportingOverflow(low)
            magnitude = overflow || carry ? nil : sum
        }

        /// The integer, negated or not: exact when it fits `Int` (`-9223372036854775808` does); as a
        /// float, the nearest one while the magnitude fits 64 bits unsigned.
        func value(negative: Bool) -> (exact: Int?, approximate: Double) {
            let float = magnitude.map { Double($0) } ?? approximate
            return (magnitude.flatMap { Int(magnitude: $0, negative: negative) }, negative ? -float : float)
        }

        /// The value of an ASCII digit, `0`–`9`, `a`–`f` or `A`–`F`.
        private static func digit(_ byte: UInt8) -> Int? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(byte - UInt8(ascii: "a")) + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(byte - UInt8(ascii: "A")) + 10
            default: nil
            }
        }
    }
}
