import ARVisSpec
import ARVisSupport
import Foundation

/// A tick: where it sits along the axis, in points, and its label.
struct Tick {
    var position: Double
    var label: String
}

/// Maps plotted values to points along one axis: linear for numbers, time for dates, band for categories.
struct AxisScale {
    enum Kind {
        case linear, time, band
    }

    let kind: Kind
    /// The continuous domain.
    private(set) var lower = 0.0, upper = 1.0
    /// Band categories in order.
    private(set) var categories: [String] = []
    private var categoryIndex: [String: Int] = [:]
    /// The point range: `start` is where the domain's lower end (or first band) goes.
    var start = 0.0, end = 1.0

    /// The values one axis shows, gathered from every mark, before a scale is made of them.
    struct Collector {
        var sawText = false, sawDate = false, sawNumber = false
        var lower = Double.infinity, upper = -Double.infinity
        var categories: [String] = []
        var seen = Set<String>()

        mutating func add(_ value: PlotValue?) {
            guard let value else { return }
            switch value {
            case .number(let number):
                sawNumber = true
                include(number)
            case .date(let instant):
                sawDate = true
                include(instant)
            case .text(let text):
                sawText = true
                addCategory(text)
            }
        }

        mutating func include(_ value: Double) {
            guard value.isFinite, abs(value) < 1e15 else { return }
            lower = min(lower, value)
            upper = max(upper, value)
        }

        mutating func addCategory(_ text: String) {
            if seen.insert(text).inserted { categories.append(text) }
        }
    }

    /// A scale for the collected values, honouring the chart's `includingZero` and `domain`.
    init(_ values: Collector, configuration: ScaleConfiguration?) {
        if values.sawText {
            kind = .band
            var categories = values.categories
            for value in configuration?.domain ?? [] {
                if let text = value.text, !values.seen.contains(text) { categories.append(text) }
            }
            setCategories(categories)
            return
        }
        kind = values.sawDate ? .time : .linear
        var lower = values.lower
        var upper = values.upper
        let explicit = configuration?.domain.flatMap(Self.continuousDomain)
        if let includingZero = configuration?.includingZero {
            if includingZero && kind == .linear {
                lower = min(lower, 0)
                upper = max(upper, 0)
            }
        } else if let explicit {
            (lower, upper) = explicit
        } else if kind == .linear {
            lower = min(lower, 0)
            upper = max(upper, 0)
        }
        if !lower.isFinite || !upper.isFinite { (lower, upper) = kind == .time ? (0, 86_400) : (0, 1) }
        if lower == upper {
            let pad = kind == .time ? 86_400 : max(1, abs(lower) * 0.1)
            lower -= pad
            upper += pad
        }
        self.lower = lower
        self.upper = upper
        self.niceFromTicks = explicit == nil && kind == .linear
    }

    /// Whether the domain may be widened to the outer ticks.
    private var niceFromTicks = false

    private mutating func setCategories(_ list: [String]) {
        categories = list
        categoryIndex = [:]
        for (index, category) in list.enumerated() where categoryIndex[category] == nil {
            categoryIndex[category] = index
        }
    }

    /// Reads a `domain` of two or more numbers or date strings.
    private static func continuousDomain(_ values: [DataValue]) -> (Double, Double)? {
        let numbers = values.compactMap { value -> Double? in
            if let number = value.number { return number }
            guard let text = value.text, let pattern = DatePattern.detect(text) else { return nil }
            return pattern.parse(text)
        }
        guard numbers.count >= 2, let low = numbers.min(), let high = numbers.max(), low.isFinite, high.isFinite else {
            return nil
        }
        return (low, high)
    }

    /// The band step in points (the space each category takes).
    var step: Double {
        guard kind == .band, !categories.isEmpty else { return 0 }
        return abs(end - start) / Double(categories.count)
    }

    /// The position of a value, in points; `nil` if the scale cannot place it.
    func position(_ value: PlotValue?) -> Double? {
        guard let value else { return nil }
        switch (kind, value) {
        case (.band, .text(let text)):
            guard let index = categoryIndex[text] else { return nil }
            let direction: Double = end >= start ? 1 : -1
            return start + direction * step * (Double(index) + 0.5)
        case (.band, _):
            return nil
        case (_, .text):
            return nil
        default:
            return position(of: value.continuous ?? 0)
        }
    }

    /// The position of a continuous domain value.
    func position(of number: Double) -> Double {
        start + (number - lower) / (upper - lower) * (end - start)
    }

    /// Where bars and areas start: the position of zero on a linear scale (clamped to the domain), else of the domain's lower end.
    var baseline: Double { position(of: kind == .linear ? min(max(0, lower), upper) : lower) }

    /// Widens a linear domain to whole tick steps, and returns the ticks for an axis `length` points long.
    mutating func makeTicks(length: Double, spacing: Double, axis: AxisConfiguration?) -> [Tick] {
        let target = max(2, Int(saturating: length / spacing))
        switch kind {
        case .band:
            return categories.indices.map {
                Tick(position: position(.text(categories[$0])) ?? 0, label: categories[$0])
            }
        case .linear:
            let step = Self.niceStep((upper - lower) / Double(target))
            if niceFromTicks {
                lower = (lower / step).rounded(.down) * step
                upper = (upper / step).rounded(.up) * step
            }
            var values: [Double] = []
            var value = (lower / step).rounded(.up) * step
            while value <= upper + step * 1e-9 && values.count < 200 {
                values.append(value)
                value += step
            }
            // One format for the whole axis: the unit and the decimals come from its largest tick and its step.
            let largest = values.map(abs).max() ?? 0
            return values.map {
                Tick(position: position(of: $0), label: Self.numberLabel($0, step: step, largest: largest))
            }
        case .time:
            let stride =
                axis?.stride.flatMap(TimeTicks.stride) ?? TimeTicks.automaticStride(span: upper - lower, target: target)
            let instants = TimeTicks.instants(from: lower, to: upper, stride: stride)
            return instants.enumerated().map { index, instant in
                Tick(
                    position: position(of: instant),
                    label: TimeTicks.label(
                        instant, stride: stride, isFirst: index == 0, yearFormat: axis?.yearLabelFormat))
            }
        }
    }

    /// 1, 2 or 5 times a power of ten, near `rough`.
    static func niceStep(_ rough: Double) -> Double {
        guard rough.isFinite, rough > 0 else { return 1 }
        let power = pow(10, (log10(rough)).rounded(.down))
        let fraction = rough / power
        let nice: Double = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10
        return nice * power
    }

    /// A tick label: grouped digits, or K/M/B for large values, with the decimals the step needs.
    /// A tick label in the axis's one format: a unit (K, M, B) chosen by the axis's largest tick
    /// `largest`, and as many decimals as the step needs, zero included ("0.0, 0.5, 1.0").
    static func numberLabel(_ value: Double, step: Double, largest: Double) -> String {
        let (divisor, suffix): (Double, String) =
            largest >= 1e9 || step >= 1e9
            ? (1e9, "B")
            : largest >= 1e6 || step >= 1e6 ? (1e6, "M") : largest >= 1e5 && step >= 1e3 ? (1e3, "K") : (1, "")
        if abs(value) < step * 1e-6, !suffix.isEmpty { return "0" }
        return compact(value / divisor, step: step / divisor, grouped: suffix.isEmpty) + suffix
    }

    private static func compact(_ value: Double, step: Double, grouped: Bool = false) -> String {
        let decimals = step >= 1 ? 0 : min(6, Int(saturating: (-log10(step)).rounded(.up)))
        let rounded = abs(value) < step * 1e-6 ? 0 : value
        var text = String(format: "%.\(decimals)f", rounded)
        if grouped { text = groupThousands(text) }
        return text
    }

    static func groupThousands(_ text: String) -> String {
        let negative = text.hasPrefix("-")
        let body = negative ? String(text.dropFirst()) : text
        let parts = body.split(separator: ".", maxSplits: 1)
        var integer = String(parts.first ?? "0")
        guard integer.count > 3 else { return text }
        var groups: [String] = []
        while integer.count > 3 {
            groups.insert(String(integer.suffix(3)), at: 0)
            integer = String(integer.dropLast(3))
        }
        groups.insert(integer, at: 0)
        return (negative ? "-" : "") + groups.joined(separator: ",") + (parts.count > 1 ? "." + parts[1] : "")
    }
}
