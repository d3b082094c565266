/// A Unicode (ICU) date pattern such as `yyyy-MM-dd'T'HH:mm:ssZZZZZ`, compiled once and parsed without
/// Foundation's formatters: the same text gives the same instant on every machine.
///
/// English names (`MMM`, `EEEE`, `a`, `G`) are matched without regard to case; a time without a zone is
/// UTC; two-digit years (`yy`) map to 1950–2049. `YYYY` (week-based year) is read as the calendar
/// year, which is what authors who write it mean.
public struct DatePattern: Sendable, Hashable {
    /// The pattern as written.
    public let pattern: String
    private let tokens: [Token]

    /// Why a pattern cannot be compiled.
    public struct Problem: Error, Sendable, Hashable {
        /// What is wrong with the pattern, such as "a quote is not closed".
        public var message: String
        /// How to fix the pattern, when that is known.
        public var hint: String?
    }

    enum Field: Sendable, Hashable {
        case era, year, quarter, month, weekOfYear, weekOfMonth, day, dayOfYear, weekdayInMonth, weekday
        case amPm, hour0to23, hour1to12, hour0to11, hour1to24, minute, second, fraction, millisecondsInDay, zone
    }

    enum Token: Sendable, Hashable {
        case literal([UInt8])
        case field(Field, count: Int)
    }

    /// Compiles `pattern`, or says which part of it is not a date field.
    public static func compile(_ pattern: String) -> Result<DatePattern, Problem> {
        var tokens: [Token] = []
        var literal: [UInt8] = []
        let scalars = Array(pattern.unicodeScalars)
        var index = 0
        func flush() {
            if !literal.isEmpty {
                tokens.append(.literal(literal))
                literal = []
            }
        }
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "'" {
                index += 1
                if index < scalars.count, scalars[index] == "'" {
                    literal.append(UInt8(ascii: "'"))
                    index += 1
                    continue
                }
                while index < scalars.count {
                    if scalars[index] == "'" {
                        if index + 1 < scalars.count, scalars[index + 1] == "'" {
                            literal.append(UInt8(ascii: "'"))
                            index += 2
                            continue
                        }
                        break
                    }
                    literal.append(contentsOf: String(scalars[index]).utf8)
                    index += 1
                }
                guard index < scalars.count else {
                    return .failure(Problem(message: "a quote is not closed", hint: "close the quoted text with '"))
                }
                index += 1
            } else if scalar.properties.isAlphabetic, scalar.isASCII {
                var count = 1
                while index + count < scalars.count, scalars[index + count] == scalar { count += 1 }
                guard let field = field(for: Character(scalar)) else {
                    return .failure(
                        Problem(
                            message: "'\(scalar)' is not a date field letter",
                            hint: "quote literal letters, as in yyyy-MM-dd'T'HH:mm"))
                }
                flush()
                tokens.append(.field(field, count: count))
                index += count
            } else {
                literal.append(contentsOf: String(scalar).utf8)
                index += 1
            }
        }
        flush()
        guard tokens.contains(where: { if case .field = $0 { true } else { false } }) else {
            return .failure(Problem(message: "the pattern has no date fields", hint: "for example yyyy-MM-dd"))
        }
        return .success(DatePattern(pattern: pattern, tokens: tokens))
    }

    private static func field(for letter: Character) -> Field? {
        switch letter {
        case "G": .era
        case "y", "Y", "u": .year
        case "Q", "q": .quarter
        case "M", "L": .month
        case "w": .weekOfYear
        case "W": .weekOfMonth
        case "d": .day
        case "D": .dayOfYear
        case "F": .weekdayInMonth
        case "E", "e", "c": .weekday
        case "a": .amPm
        case "H": .hour0to23
        case "h": .hour1to12
        case "K": .hour0to11
        case "k": .hour1to24
        case "m": .minute
        case "s": .second
        case "S": .fraction
        case "A": .millisecondsInDay
        case "z", "Z", "O", "X", "x", "v", "V": .zone
        default: nil
        }
    }

    /// The instant `text` denotes, in seconds since 1970-01-01 UTC, or `nil` when it does not match.
    public func parse(_ text: String) -> Double? {
        var text = text
        return text.withUTF8 { bytes in
            var parser = DateTextParser(bytes: bytes)
            return read(&parser) ? parser.fields.instant() : nil
        }
    }

    /// Whether `text` matches the pattern and names a real date: what validation needs, without
    /// computing the instant. `matches(t)` is `parse(t) != nil`.
    public func matches(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { matches(utf8: $0) }
    }

    /// ``matches(_:)`` on UTF-8 bytes.
    package func matches(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var parser = DateTextParser(bytes: bytes)
        return read(&parser) && parser.fields.isValid
    }

    /// Reads the parser's text token by token; whether all of it follows the pattern. The fields stay
    /// in the parser (they are read there, not copied out).
    private func read(_ parser: inout DateTextParser) -> Bool {
        for (position, token) in tokens.enumerated() {
            let nextIsNumeric = position + 1 < tokens.count && tokens[position + 1].isNumericField
            guard parser.read(token, adjacentNumeric: nextIsNumeric) else { return false }
        }
        return parser.atEnd
    }

    /// The built-in patterns iARVis tries, in its order, that are valid Unicode patterns.
    public static let builtIn: [DatePattern] = [
        "yyyy-MM-dd'T'HH:mm:ssZZZZZ", "yyyy'-'MM'-'dd'T'HH':'mm':'ssZ", "yyyy'-'MM'-'dd'T'HH':'mm':'ss'.'SSSZ",
        "yyyy-MM-dd'T'HH:mm:ss.SSSZ", "yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd HH:mm", "yyyy-MM-dd", "h:mm:ss A", "h:mm A",
        "MM/dd/yyyy", "MMMM d, yyyy", "MMMM d, yyyy LT", "dddd, MMMM D, yyyy LT", "yyyyyy-MM-dd", "yyyy-MM-dd",
        "yyyy-'W'ww-E", "GGGG-'['W']'ww-E", "yyyy-'W'ww", "GGGG-'['W']'ww", "yyyy'W'ww", "yyyy-ddd", "HH:mm:ss.SSSS",
        "HH:mm:ss", "HH:mm",
    ].compactMap { try? compile($0).get() }

    /// The built-in patterns whose text starts with a digit, and those whose text starts with a letter.
    private static let builtInByLead: (digit: [DatePattern], letter: [DatePattern]) = (
        builtIn.filter { $0.tokens.first?.isNumericField == true },
        builtIn.filter { $0.tokens.first?.isNumericField == false }
    )

    /// The first built-in pattern that `text` matches, as iARVis detects dates in string columns.
    ///
    /// The text's shape is checked first: every built-in date is at most 40 bytes, holds a digit, and
    /// starts with a digit (numeric patterns) or a letter (month and era names), so most category
    /// labels are turned away without trying any pattern.
    public static func detect(_ text: String) -> DatePattern? {
        let bytes = text.utf8
        guard let first = bytes.first, bytes.count <= 40,
            bytes.contains(where: { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { return nil }
        let candidates: [DatePattern]
        switch first {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): candidates = builtInByLead.digit
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"):
            candidates = builtInByLead.letter
        default: return nil
        }
        return candidates.first { $0.parse(text) != nil }
    }
}

extension DatePattern.Token {
    var isNumericField: Bool {
        guard case .field(let field, let count) = self else { return false }
        switch field {
        case .era, .amPm, .zone: return false
        case .month, .quarter, .weekday: return count < 3
        default: return true
        }
    }
}

/// The fields read from a date text, turned into an instant once all are known.
package struct DateFields {
    var year = 1970, month = 1, day = 1, hour = 0, minute = 0, second = 0
    var fraction = 0.0, offsetSeconds = 0, isPM: Bool?, isBC = false
    var dayOfYear: Int?, weekOfYear: Int?, weekday: Int?, millisecondsInDay: Int?, quarter: Int?

    /// The calendar year, counting 1 BC as year 0.
    private var astronomicalYear: Int { isBC ? 1 - year : year }

    /// Whether the fields name a real day (a month and a day within it, unless the day is given by
    /// day of year or by week).
    var isValid: Bool {
        guard dayOfYear == nil, weekOfYear == nil else { return true }
        let month = quarter.map { ($0 - 1) * 3 + 1 } ?? self.month
        return (1...12).contains(month) && day >= 1 && day <= DateFields.daysInMonth(astronomicalYear, month)
    }

    func instant() -> Double? {
        guard isValid else { return nil }
        let year = astronomicalYear
        let month = quarter.map { ($0 - 1) * 3 + 1 } ?? self.month
        var dayNumber: Int
        if let dayOfYear {
            dayNumber = DateFields.daysFromCivil(year, 1, 1) + dayOfYear - 1
        } else if let weekOfYear {
            // ISO 8601 week date: week 1 holds January 4th; weeks start on Monday.
            let january4 = DateFields.daysFromCivil(year, 1, 4)
            let mondayOfWeek1 = january4 - ((january4 + 3) % 7 + 7) % 7
            dayNumber = mondayOfWeek1 + (weekOfYear - 1) * 7 + ((weekday ?? 2) + 5) % 7
        } else {
            dayNumber = DateFields.daysFromCivil(year, month, day)
        }
        var hour = self.hour
        if let isPM { hour = hour % 12 + (isPM ? 12 : 0) }
        var seconds = Double(dayNumber) * 86_400 + Double(hour * 3600 + minute * 60 + second) + fraction
        if let millisecondsInDay { seconds = Double(dayNumber) * 86_400 + Double(millisecondsInDay) / 1000 }
        return seconds - Double(offsetSeconds)
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's algorithm).
    package static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    package static func daysInMonth(_ year: Int, _ month: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}

extension DateFields {
    /// The proleptic Gregorian year, month and day of a day number counted from 1970-01-01.
    package static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
