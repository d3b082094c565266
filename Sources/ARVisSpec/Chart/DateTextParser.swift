/// Reads the text of one date, token by token, into ``DateFields``.
struct DateTextParser {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    var fields = DateFields()

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    var atEnd: Bool { index == bytes.count }

    private static let months = [
        "january", "february", "march", "april", "may", "june", "july", "august", "september",
        "october", "november", "december",
    ]
    private static let weekdays = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]

    /// Reads one token; `adjacentNumeric` makes a numeric field take exactly its width (as in `yyyyMMdd`).
    mutating func read(_ token: DatePattern.Token, adjacentNumeric: Bool) -> Bool {
        switch token {
        case .literal(let expected):
            guard index + expected.count <= bytes.count else { return false }
            for (offset, byte) in expected.enumerated() where bytes[index + offset] != byte { return false }
            index += expected.count
            return true
        case .field(let field, let count):
            return read(field, count: count, adjacentNumeric: adjacentNumeric)
        }
    }

    private mutating func read(_ field: DatePattern.Field, count: Int, adjacentNumeric: Bool) -> Bool {
        let width = adjacentNumeric ? count : max(count, 9)
        switch field {
        case .era:
            guard let era = name(among: ["ad", "bc", "anno domini", "before christ"]) else { return false }
            fields.isBC = era % 2 == 1
        case .year:
            guard let year = number(min: count == 2 ? 2 : 1, max: count == 2 ? 2 : width) else { return false }
            fields.year = count == 2 ? (year < 50 ? 2000 + year : 1900 + year) : year
        case .quarter: return textOrNumber(count, names: ["q1", "q2", "q3", "q4"], 1...4, width) { $0.quarter = $1 }
        case .month: return textOrNumber(count, names: Self.months, 1...12, width) { $0.month = $1 }
        case .weekday: return textOrNumber(count, names: Self.weekdays, 1...7, width) { $0.weekday = $1 }
        case .weekOfYear: return numeric(1...53, width) { $0.weekOfYear = $1 }
        case .weekOfMonth, .weekdayInMonth: return numeric(0...6, width) { _, _ in }
        case .day: return numeric(1...31, width) { $0.day = $1 }
        case .dayOfYear: return numeric(1...366, width) { $0.dayOfYear = $1 }
        case .amPm:
            guard let period = name(among: ["am", "pm"]) else { return false }
            fields.isPM = period == 1
        case .hour0to23: return numeric(0...23, width) { $0.hour = $1 }
        case .hour1to12: return numeric(1...12, width) { $0.hour = $1 % 12 }
        case .hour0to11: return numeric(0...11, width) { $0.hour = $1 }
        case .hour1to24: return numeric(1...24, width) { $0.hour = $1 % 24 }
        case .minute: return numeric(0...59, width) { $0.minute = $1 }
        case .second: return numeric(0...60, width) { $0.second = min($1, 59) }
        case .fraction:
            let start = index
            guard let value = number(min: 1, max: adjacentNumeric ? count : 9) else { return false }
            fields.fraction = Double(value) / pow10(index - start)
        case .millisecondsInDay: return numeric(0...86_399_999, width) { $0.millisecondsInDay = $1 }
        case .zone: return readZone()
        }
        return true
    }

    private mutating func numeric(_ range: ClosedRange<Int>, _ width: Int, _ store: (inout DateFields, Int) -> Void)
        -> Bool
    {
        guard let value = number(min: 1, max: width), range.contains(value) else { return false }
        store(&fields, value)
        return true
    }

    private mutating func textOrNumber(
        _ count: Int, names: [String], _ range: ClosedRange<Int>, _ width: Int,
        _ store: (inout DateFields, Int) -> Void
    ) -> Bool {
        guard count >= 3 else { return numeric(range, width, store) }
        guard let found = name(among: names, allowAbbreviation: true) else { return false }
        store(&fields, found + 1)
        return true
    }

    /// Reads `min` to `max` digits.
    private mutating func number(min: Int, max: Int) -> Int? {
        var value = 0
        var digits = 0
        while digits < max, index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 {
            value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
            digits += 1
            index += 1
        }
        return digits >= min ? value : nil
    }

    /// Matches one of `names` (or its three-letter abbreviation) without regard to case; longest first.
    private mutating func name(among names: [String], allowAbbreviation: Bool = false) -> Int? {
        var best: (index: Int, length: Int)?
        for (position, name) in names.enumerated() {
            for candidate in allowAbbreviation ? [name, String(name.prefix(3))] : [name] {
                let length = candidate.utf8.count
                guard length > (best?.length ?? 0), index + length <= bytes.count else { continue }
                if zip(candidate.utf8, bytes[index..<(index + length)]).allSatisfy({ $0 == $1 | 0x20 }) {
                    best = (position, length)
                }
            }
        }
        guard let best else { return nil }
        index += best.length
        return best.index
    }

    /// Reads `Z`, `±hh`, `±hhmm`, `±hh:mm`, optionally after `GMT` or `UTC`, or a zone abbreviation (as UTC).
    private mutating func readZone() -> Bool {
        guard index < bytes.count else { return false }
        if bytes[index] == UInt8(ascii: "Z") {
            index += 1
            return true
        }
        if name(among: ["gmt", "utc"]) != nil,
            index == bytes.count || (bytes[index] != UInt8(ascii: "+") && bytes[index] != UInt8(ascii: "-"))
        {
            return true
        }
        if bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            index += 1
            guard let hours = number(min: 1, max: 2), hours <= 18 else { return false }
            if index < bytes.count, bytes[index] == UInt8(ascii: ":") { index += 1 }
            let minutes = number(min: 2, max: 2) ?? 0
            guard minutes < 60 else { return false }
            fields.offsetSeconds = sign * (hours * 3600 + minutes * 60)
            return true
        }
        let start = index
        while index < bytes.count, (bytes[index] | 0x20) >= UInt8(ascii: "a"),
            (bytes[index] | 0x20) <= UInt8(ascii: "z")
        { index += 1 }
        return (3...5).contains(index - start)
    }

    private func pow10(_ exponent: Int) -> Double {
        (0..<exponent).reduce(1.0) { value, _ in value * 10 }
    }
}
