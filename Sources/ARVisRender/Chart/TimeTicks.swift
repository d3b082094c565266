import ARVisSpec
import ARVisSupport
import Foundation

/// Calendar-aligned tick instants and labels for time axes, in UTC.
enum TimeTicks {
    enum Unit: Int, Comparable {
        case second, minute, hour, day, week, month, year

        static func < (lhs: Unit, rhs: Unit) -> Bool { lhs.rawValue < rhs.rawValue }

        var approximateSeconds: Double {
            switch self {
            case .second: 1
            case .minute: 60
            case .hour: 3600
            case .day: 86_400
            case .week: 604_800
            case .month: 2_629_746
            case .year: 31_556_952
            }
        }
    }

    /// A tick spacing: `count` of `unit`.
    struct Stride: Equatable {
        var unit: Unit
        var count: Int
    }

    private static let candidates: [Stride] = [
        (Unit.second, 1), (.second, 5), (.second, 15), (.second, 30), (.minute, 1), (.minute, 5), (.minute, 15),
        (.minute, 30),
        (.hour, 1), (.hour, 3), (.hour, 6), (.hour, 12), (.day, 1), (.day, 2), (.week, 1), (.month, 1), (.month, 3),
        (.month, 6),
        (.year, 1), (.year, 2), (.year, 5), (.year, 10), (.year, 20), (.year, 25), (.year, 50), (.year, 100),
        (.year, 250),
        (.year, 500), (.year, 1000), (.year, 10_000),
    ].map { Stride(unit: $0.0, count: $0.1) }

    /// The stride giving at most `target` ticks over `span` seconds.
    static func automaticStride(span: Double, target: Int) -> Stride {
        candidates.first { span / ($0.unit.approximateSeconds * Double($0.count)) <= Double(max(1, target)) }
            ?? candidates[candidates.count - 1]
    }

    /// The stride an axis's `strideByDateComponent` asks for, if its component has one.
    static func stride(_ configured: AxisConfiguration.DateStride) -> Stride? {
        let count = max(1, configured.count)
        switch configured.component {
        case .era: return Stride(unit: .year, count: 1000 * count)
        case .year, .yearForWeekOfYear: return Stride(unit: .year, count: count)
        case .quarter: return Stride(unit: .month, count: 3 * count)
        case .month: return Stride(unit: .month, count: count)
        case .weekOfYear, .weekOfMonth: return Stride(unit: .week, count: count)
        case .day, .weekday, .weekdayOrdinal: return Stride(unit: .day, count: count)
        case .hour: return Stride(unit: .hour, count: count)
        case .minute: return Stride(unit: .minute, count: count)
        case .second: return Stride(unit: .second, count: count)
        case .nanosecond, .calendar, .timeZone: return nil
        }
    }

    /// Tick instants from `lower` to `upper` on calendar boundaries of `stride`; at most 400.
    static func instants(from lower: Double, to upper: Double, stride: Stride) -> [Double] {
        guard lower.isFinite, upper.isFinite, upper >= lower, abs(lower) < 1e13, abs(upper) < 1e13 else { return [] }
        var result: [Double] = []
        let count = stride.count
        switch stride.unit {
        case .year, .month:
            let start = civil(lower)
            var months =
                stride.unit == .year
                ? Int(saturating: (Double(start.year) / Double(count)).rounded(.down)) * count * 12
                : (start.year * 12 + start.month - 1) / count * count
            let step = stride.unit == .year ? count * 12 : count
            while result.count < 400 {
                let instant =
                    Double(DateFields.daysFromCivil(floorDiv(months, 12), months - floorDiv(months, 12) * 12 + 1, 1))
                    * 86_400
                if instant > upper { break }
                if instant >= lower { result.append(instant) }
                months += step
            }
        case .week, .day:
            let days = stride.unit == .week ? 7 * count : count
            // Weeks start on Monday; 1970-01-05 was a Monday.
            let origin = stride.unit == .week ? 4 : 0
            var day =
                floorDiv(Int(saturating: max(-4e9, min(4e9, (lower / 86_400).rounded(.down)))) - origin, days) * days
                + origin
            while result.count < 400 {
                let instant = Double(day) * 86_400
                if instant > upper { break }
                if instant >= lower { result.append(instant) }
                day += days
            }
        default:
            let seconds = stride.unit.approximateSeconds * Double(count)
            var instant = (lower / seconds).rounded(.up) * seconds
            while instant <= upper && result.count < 400 {
                result.append(instant)
                instant += seconds
            }
        }
        return result
    }

    private static let monthNames = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]

    /// A label for a tick at `instant`, as precise as `stride` needs.
    static func label(_ instant: Double, stride: Stride, isFirst: Bool, yearFormat: YearLabelFormat?) -> String {
        let date = civil(instant)
        let year =
            yearFormat == .twoDigits ? String(format: "%02d", ((date.year % 100) + 100) % 100) : String(date.year)
        switch stride.unit {
        case .year: return year
        case .month:
            return date.month == 1 || isFirst ? "\(monthNames[date.month - 1]) \(year)" : monthNames[date.month - 1]
        case .week, .day: return "\(monthNames[date.month - 1]) \(date.day)"
        case .hour, .minute:
            let seconds = Int(max(0, min(86_399, instant - (instant / 86_400).rounded(.down) * 86_400)))
            return String(format: "%02d:%02d", seconds / 3600, seconds / 60 % 60)
        case .second:
            let seconds = Int(max(0, min(86_399, instant - (instant / 86_400).rounded(.down) * 86_400)))
            return String(format: "%02d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60)
        }
    }

    /// A full date for tooltips and the like.
    static func dateText(_ instant: Double) -> String {
        let date = civil(instant)
        return "\(monthNames[date.month - 1]) \(date.day), \(date.year)"
    }

    static func civil(_ instant: Double) -> (year: Int, month: Int, day: Int) {
        DateFields.civil(fromDays: Int(max(-4e9, min(4e9, (instant / 86_400).rounded(.down)))))
    }

    private static func floorDiv(_ a: Int, _ b: Int) -> Int {
        a >= 0 ? a / b : -((-a + b - 1) / b)
    }
}
