/// The six marks of the chart grammar.
public enum MarkType: String, Sendable, Hashable, CaseIterable, StringEnumeration {
    case bar = "BarMark"
    case line = "LineMark"
    case point = "PointMark"
    case area = "AreaMark"
    case rule = "RuleMark"
    case rectangle = "RectangleMark"
    package static var valueDescription: String { "a mark type" }
}

/// How areas stack.
public enum Stacking: String, Sendable, Hashable, CaseIterable, StringEnumeration {
    case standard, center, normalized, unstacked
    package static var valueDescription: String { "a stacking" }
}

/// How lines and areas pass through their points.
public enum InterpolationMethod: String, Sendable, Hashable, CaseIterable, StringEnumeration {
    case linear, cardinal
    package static var valueDescription: String { "an interpolation method" }
}

/// The shape drawn by a point mark.
public enum SymbolShape: String, Sendable, Hashable, CaseIterable, StringEnumeration {
    case circle = "Circle"
    case square = "Square"
    package static var valueDescription: String { "a symbol type" }
}

/// Where an annotation sits relative to its mark (or to the chart).
public enum AnnotationPosition: String, Sendable, Hashable, CaseIterable, StringEnumeration {
    case topLeading, top, topTrailing, leading, center, trailing, bottomLeading, bottom, bottomTrailing
    package static var valueDescription: String { "an annotation position" }
}

/// Calendar units for date axis strides.
public enum CalendarComponent: String, Sendable, Hashable, CaseIterable, StringEnumeration {
    case era, year, month, day, hour, minute, second, weekday, weekdayOrdinal, quarter, weekOfMonth, weekOfYear
    case yearForWeekOfYear, nanosecond, calendar, timeZone
    package static var valueDescription: String { "a calendar component" }
}

/// How axis labels show years.
public enum YearLabelFormat: String, Sendable, Hashable, CaseIterable, StringEnumeration {
    case defaultDigits, twoDigits
    package static var valueDescription: String { "a year format" }
}

/// The value type a field descriptor can force.
public enum FieldType: String, Sendable, Hashable, CaseIterable, StringEnumeration {
    case date
    package static var valueDescription: String { "a field type" }
}
