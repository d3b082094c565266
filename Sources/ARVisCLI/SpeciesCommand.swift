import ARVisModel
import ARVisPipeline
import ARVisPlanting
import ARVisSupport
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

            --model writes the low-poly model the server draws for the species found (its mean height, a \
            crown as wide as its spacing, its crown form), every match side by side along x, as GLB or USDZ \
            (AR Quick Look, on a horizontal plane) by the file's extension.

            Examples:
              arvis species
              arvis species sobreiro
              arvis species "pinheiro manso" --details
              arvis species quercus --format json
              arvis species "Pinus pinea" --model stone-pine.usdz
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

    @Option(name: .long, help: ArgumentHelp("Write the matches' models to this .glb or .usdz file.", valueName: "file"))
    var model: String?

    func run() throws {
        let matches = SpeciesCatalog.standard.search(query ?? "").map(\.species)
        guard !matches.isEmpty else {
            let shown = (query ?? "").count > 60 ? (query ?? "").prefix(57) + "…" : Substring(query ?? "")
            throw CommandFailure.input("no species matches '\(shown)'; `arvis species` lists them all")
        }
        if let model { return try write(matches, to: model) }
        switch format {
        case .json: try Console.write(json(matches))
        case .text: try Console.write(matches.map(text).joined(separator: details ? "\n\n" : "\n") + "\n")
        }
    }

    /// Writes the species' models in a row along x, each a spacing from the last.
    private func write(_ matches: [Species], to path: String) throws {
        let isUSDZ = path.lowercased().hasSuffix(".usdz")
        guard isUSDZ || path.lowercased().hasSuffix(".glb") else {
            throw CommandFailure.usage("--model writes a .glb or a .usdz file; '\(path)' is neither")
        }
        var x = 0.0
        let trees = matches.enumerated().map { index, species in
            if index > 0 { x += (matches[index - 1].spacing + species.spacing) / 2 }
            return PlantingScene.Tree(species: species.latinName, position: SIMD3(x, 0, 0))
        }
        let scene = PlantingScene(trees).model
        let bytes: [UInt8]
        do {
            bytes =
                isUSDZ
                ? try USDZWriter(anchoring: .plane(alignment: "horizontal")).write(scene) : try GLBWriter().write(scene)
        } catch {
            throw CommandFailure.input("the models could not be written: \(error.message)")
        }
        try OutputFile.write(
            Data(bytes), to: path, what: "\(matches.count) species, \(isUSDZ ? "USDZ" : "GLB")", report: true)
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
