import ArgumentParser
import Foundation

/// One `--species NAME[:SHARE]` argument: a name and, optionally, a weight (`:3`) or a percentage (`:40%`).
struct SpeciesArgument: Equatable {
    /// How the share was given.
    enum Share: Equatable {
        case unspecified
        case weight(Double)
        case percent(Double)
    }

    let name: String
    let share: Share

    init(_ argument: String) throws {
        guard let colon = argument.lastIndex(of: ":") else {
            (name, share) = (argument.trimmingCharacters(in: .whitespaces), .unspecified)
            return
        }
        name = String(argument[..<colon]).trimmingCharacters(in: .whitespaces)
        var text = argument[argument.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        let isPercent = text.hasSuffix("%")
        if isPercent { text.removeLast() }
        guard let value = Double(text), value > 0, value.isFinite, !isPercent || value <= 100 else {
            throw ValidationError(
                "--species \(argument): the share after ':' must be a positive number such as 3, or a percentage such as 40%"
            )
        }
        share = isPercent ? .percent(value) : .weight(value)
    }

    /// Each argument's share. Weights are relative (a species without one weighs 1). Percentages are of
    /// all trees: species without one split what is left equally, and percentages alone must add up to
    /// 100. Weights and percentages do not mix.
    static func shares(_ arguments: [SpeciesArgument]) throws -> [Double] {
        let percents = arguments.compactMap { if case .percent(let value) = $0.share { value } else { nil } }
        guard !percents.isEmpty else {
            return arguments.map { if case .weight(let value) = $0.share { value } else { 1 } }
        }
        guard !arguments.contains(where: { if case .weight = $0.share { true } else { false } }) else {
            throw ValidationError(
                "--species: give every share as a percentage (40%) or every share as a weight (3), not both")
        }
        let total = percents.reduce(0, +)
        let unspecified = arguments.count - percents.count
        if unspecified == 0 {
            guard abs(total - 100) < 1e-9 else {
                throw ValidationError("--species: the percentages add up to \(format(total))%, not 100%")
            }
        } else {
            guard total < 100 else {
                throw ValidationError(
                    "--species: the percentages add up to \(format(total))%, leaving nothing for the species without one"
                )
            }
        }
        return arguments.map {
            if case .percent(let value) = $0.share { value } else { (100 - total) / Double(unspecified) }
        }
    }

    private static func format(_ value: Double) -> String { String(format: "%g", value) }
}
