/// Reads fixed-length number arrays such as `[x, y, z]`, `[width, height]` and paddings.
package enum NumberList {
    /// Reads exactly `names.count` finite numbers; reports the whole array when the shape is wrong.
    package static func read(
        _ node: Node, _ context: DecodingContext, names: [String], minimum: Double? = nil
    ) -> [Double]? {
        let form = "[\(names.joined(separator: ", "))]"
        guard let elements = node.elements else {
            context.typeMismatch(node, expected: "an array \(form)")
            return nil
        }
        guard elements.count == names.count else {
            context.error(
                .invalidValue, at: node.offset,
                "expected \(names.count) numbers \(form), found \(elements.count) element\(elements.count == 1 ? "" : "s")"
            )
            return nil
        }
        var values: [Double] = []
        for (index, element) in elements.enumerated() {
            guard let value = element.number else {
                context.at(index: index) { context.typeMismatch(element, expected: "a number (\(names[index]))") }
                return nil
            }
            if let minimum, value < minimum {
                context.at(index: index) {
                    context.error(
                        .invalidValue, at: element.offset,
                        "\(names[index]) must be at least \(minimum.node.compactText), found \(value.node.compactText)")
                }
                return nil
            }
            guard abs(value) <= SpecLimits.largestCoordinate else {
                context.at(index: index) {
                    context.error(
                        .invalidValue, at: element.offset,
                        "\(names[index]) must be between -\(SpecLimits.largestCoordinate.node.compactText) and \(SpecLimits.largestCoordinate.node.compactText), found \(value.node.compactText)"
                    )
                }
                return nil
            }
            values.append(value)
        }
        return values
    }

    /// The schema of such an array.
    package static func schema(names: [String], minimum: Double? = nil, description: String) -> Schema {
        .tuple(
            names.map { _ in
                .number(minimum: minimum ?? -SpecLimits.largestCoordinate, maximum: SpecLimits.largestCoordinate)
            }, description: description)
    }
}

/// Checks a number against its legal range, reporting a located error.
package enum NumberCheck {
    /// Whether `value` is positive and at most `maximum`; reports `what` otherwise.
    @discardableResult
    package static func positive(
        _ value: Double?, _ what: String, maximum: Double = SpecLimits.largestLength,
        at offset: Int, _ context: DecodingContext
    ) -> Bool {
        guard let value else { return true }
        guard value > 0 else {
            context.error(.invalidValue, at: offset, "\(what) must be greater than 0, found \(value.node.compactText)")
            return false
        }
        return atMost(value, maximum, what, at: offset, context)
    }

    /// Whether `value` is zero or more and at most `maximum`; reports `what` otherwise.
    @discardableResult
    package static func nonNegative(
        _ value: Double?, _ what: String, maximum: Double = SpecLimits.largestLength,
        at offset: Int, _ context: DecodingContext
    ) -> Bool {
        guard let value else { return true }
        guard value >= 0 else {
            context.error(.invalidValue, at: offset, "\(what) must not be negative, found \(value.node.compactText)")
            return false
        }
        return atMost(value, maximum, what, at: offset, context)
    }

    /// Whether `value` lies in `range`; reports `what` otherwise.
    @discardableResult
    package static func within(
        _ value: Double?, _ range: ClosedRange<Double>, _ what: String, at offset: Int, _ context: DecodingContext
    ) -> Bool {
        guard let value, !range.contains(value) else { return true }
        context.error(
            .invalidValue, at: offset,
            "\(what) must be between \(range.lowerBound.node.compactText) and \(range.upperBound.node.compactText), found \(value.node.compactText)"
        )
        return false
    }

    private static func atMost(
        _ value: Double, _ maximum: Double, _ what: String, at offset: Int, _ context: DecodingContext
    ) -> Bool {
        guard value > maximum else { return true }
        context.error(
            .invalidValue, at: offset,
            "\(what) must be at most \(maximum.node.compactText), found \(value.node.compactText)")
        return false
    }
}
