import ARVisPlanting
import ArgumentParser
import Foundation

/// `arvis species`: list or search the species catalog.
struct SpeciesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "species",
        abstract: "List or search the tree species catalog (Latin, English or Portuguese names).",
        discussion: """
            Search ignores case and accents, and matches whole names, beginnings of names or words, and names \
            with a typing mistake or two. Each entry gives the spacing `arvis plant` uses for it.

            Examples:
              arvis species
              arvis species sobreiro
              arvis species "pinheiro manso" --details
              arvis species quercus --format json
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Argument(help: "A name or part of one; nothing lists every species.")
    var query: String?

    @Flag(help: "Show heights, description and source.")
    var details = false

    @Option(help: "Output format: text or json.")
    var format: Format = .text

    func run() throws {
        let matches = SpeciesCatalog.standard.search(query ?? "").map(\.species)
        guard !matches.isEmpty else {
            let shown = (query ?? "").count > 60 ? (query ?? "").prefix(57) + "…" : Substring(query ?? "")
            throw CommandFailure.input("no species matches '\(shown)'; `arvis species` lists them all")
        }
        switch format {
        case .json: try Console.write(json(matches))
        case .text: try Console.write(matches.map(text).joined(separator: details ? "\n\n" : "\n") + "\n")
        }
    }

    private func text(_ species: Species) -> String {
        let names = (species.englishNames.prefix(1) + species.portugueseNames.prefix(1)).joined(separator: " / ")
        let line =
            "\(species.latinName.padding(toLength: 24, withPad: " ", startingAt: 0)) \(names.padding(toLength: 40, withPad: " ", startingAt: 0)) \(String(format: "%4.1f", species.spacing)) m"
        guard details else { return line }
        return """
            \(line)
              English: \(species.englishNames.joined(separator: ", ")); Portuguese: \(species.portugueseNames.joined(separator: ", "))
              Height: \(Int(species.minimumHeight))–\(Int(species.maximumHeight)) m
              \(species.description)
              Source: \(species.source)
            """
    }

    private func json(_ list: [Species]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(list)) ?? Data("[]".utf8), as: UTF8.self) + "\n"
    }
}
