import ARVisSpec
import ArgumentParser

/// `arvis schema`: prints the JSON Schema.
struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the JSON Schema (draft 2020-12) of ARVis specs.",
        discussion: """
            Save it and name it in a spec's "$schema" key (or in your editor's settings) for completion \
            and checks while editing. Without --kind the root accepts any of the three kinds. Number \
            ranges in it are ARVis's limits (lengths up to 10 000 points, font sizes up to 1 000 …).

            Examples:
              arvis schema > arvis.schema.json
              arvis schema --kind chart
            """
    )

    @Option(help: "Only this kind: environment, component or chart.")
    var kind: DocumentKind?

    func run() throws {
        try Console.write(SpecSchema.json(for: kind))
    }
}
