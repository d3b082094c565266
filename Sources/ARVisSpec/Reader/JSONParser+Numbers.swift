import ARVisSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Numbers: exact 64-bit integers, Clinger's fast path for reals, the C library for the hard cases.
extension JSONParser {
    mutating func parseNumber() throws(Stop) -> Node {
        let start = index
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else {
            if index < bytes.count, bytes[index] == UInt8(ascii: "I") { throw nonFinite(start) }
            throw fail(.syntax, at: start, "a '-' must be followed by digits")
        }
        var digits = Digits()
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) {
                throw fail(
                    .syntax, at: start, "numbers cannot have leading zeros", hint: "write it without the leading 0")
            }
        } else {
            scanDigits(&digits, fractional: false)
        }
        var isInteger = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw fail(.syntax, at: start, "a decimal point must be followed by digits")
            }
            scanDigits(&digits, fractional: true)
        }
        var exponent = 0
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            exponent = try parseExponent(start)
        }
        if isInteger, !digits.dropped, let integer = digits.integer(negative: negative) {
            return Node(.int(integer), offset: start)
        }
        let value = fastDouble(digits, exponent + digits.exponent) ?? slowDouble(from: start)
        guard value.isFinite else {
            throw fail(
                .numberOutOfRange, at: start, "the number \(text(from: start)) is out of range",
                hint: "numbers must fit a 64-bit float (about ±1.8e308)")
        }
        if isInteger, abs(value) >= 0x1p53 {
            // Beyond 64-bit integers a whole number is kept as the nearest float; say so, since
            // writing the document back would change it.
            diagnostics.append(
                PendingDiagnostic(
                    .warning, .inexactNumber, offset: start, path: path.text,
                    message:
                        "the integer \(text(from: start)) does not fit 64 bits and is read as \(negative ? -value : value)",
                    hint: "write it as a string to keep every digit"))
        }
        return Node(.double(negative ? -value : value), offset: start)
    }

    /// The significant digits of a number: up to 19 of them, exactly, in a 64-bit integer.
    struct Digits {
        var mantissa: UInt64 = 0
        /// Significant digits kept in `mantissa` (leading zeros do not count).
        var count = 0
        /// The power of ten `mantissa` is to be multiplied by.
        var exponent = 0
        /// Whether digits beyond the 19th were dropped (the slow path then converts exactly).
        var dropped = false

        func integer(negative: Bool) -> Int? {
            guard exponent == 0 else { return nil }
            return Int(magnitude: mantissa, negative: negative)
        }
    }

    mutating func scanDigits(_ digits: inout Digits, fractional: Bool) {
        while index < bytes.count, isDigit(bytes[index]) {
            if digits.count < 19 {
                digits.mantissa = digits.mantissa * 10 + UInt64(bytes[index] - UInt8(ascii: "0"))
                if digits.mantissa != 0 { digits.count += 1 }
                if fractional { digits.exponent -= 1 }
            } else {
                digits.dropped = true
                if !fractional { digits.exponent += 1 }
            }
            index += 1
        }
    }

    mutating func parseExponent(_ start: Int) throws(Stop) -> Int {
        index += 1
        var negative = false
        if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        guard index < bytes.count, isDigit(bytes[index]) else {
            throw fail(.syntax, at: start, "an exponent must have digits")
        }
        var value = 0
        while index < bytes.count, isDigit(bytes[index]) {
            value = min(value * 10 + Int(bytes[index] - UInt8(ascii: "0")), 100_000)
            index += 1
        }
        return negative ? -value : value
    }

    static let exactPowersOfTen: [Double] = (0...22).map { exponent in
        (0..<exponent).reduce(1.0) { value, _ in value * 10 }
    }

    /// Clinger's fast path: exact when the mantissa and the power of ten are both exact doubles.
    func fastDouble(_ digits: Digits, _ exponent: Int) -> Double? {
        guard !digits.dropped, digits.count <= 15, (-22...22).contains(exponent) else { return nil }
        let value = Double(digits.mantissa)
        return exponent < 0 ? value / Self.exactPowersOfTen[-exponent] : value * Self.exactPowersOfTen[exponent]
    }

    /// Correctly rounded conversion of the number's text by the C library, for the rare hard cases.
    func slowDouble(from start: Int) -> Double {
        var text = Array(bytes[start..<index])
        if text.first == UInt8(ascii: "-") { text.removeFirst() }
        text.append(0)
        return text.withUnsafeBufferPointer { pointer in
            pointer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: pointer.count) { strtod($0, nil) }
        }
    }

    func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

}
