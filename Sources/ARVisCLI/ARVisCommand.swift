import ARVisGraphics
import ARVisModel
import ARVisPipeline
import ARVisPlanting
import ARVisRender
import ARVisSpec
import ARVisSupport
public import ArgumentParser

/// The `arvis` command: validate, format, convert and describe ARVis specs.
public struct ARVisCommand: AsyncParsableCommand {
    /// The command's name, help text with examples, version and subcommands.
    public static let configuration = CommandConfiguration(
        commandName: "arvis",
        abstract:
            "Declarative augmented-reality environments: validate, render, format and convert ARVis and iARVis specs.",
        discussion: """
            A spec is JSON or YAML: an environment (targets with widgets), a single component, or a chart. \
            Every iARVis spec is an ARVis spec.

            Examples:
              arvis validate Examples/two-targets-environment.json
              arvis validate --format json --strict specs/*.json
              arvis render Examples/laptop-benchmark-bar-chart.json -o chart.png
              arvis scene Examples/two-targets-environment.json -o scene.glb
              arvis plant --area Examples/planting-area.geojson --species sobreiro --svg plan.svg -o plan.geojson
              arvis species pinheiro
              arvis fmt --write widget.json
              arvis convert --to yaml chart.json > chart.yaml
              arvis schema > arvis.schema.json
            """,
        version: ARVisCommand.version,
        subcommands: [
            ValidateCommand.self, LinksCommand.self, RenderCommand.self, SceneCommand.self, PlantCommand.self,
            SpeciesCommand.self,
            QRCommand.self, InspectCommand.self, ThumbnailCommand.self, ServeCommand.self, LoginCommand.self,
            ProjectCommand.self, MembersCommand.self, PushCommand.self, PullCommand.self, WatchCommand.self,
            FormatCommand.self, ConvertCommand.self, SchemaCommand.self, AdminCommand.self,
        ]
    )

    /// Creates the root command, as ArgumentParser requires; the subcommands do the work.
    public init() {}

    /// The version `arvis --version` prints.
    public static let version = ARVisVersion.current

    /// Runs `arvis` with `arguments` (without the program name) and returns the process exit code.
    ///
    /// Exit codes: 0 success, 1 a spec has errors, 2 usage errors or unreadable input.
    public static func run(arguments: [String]) async -> Int32 {
        if let misspelled = unknownCommand(in: arguments) {
            let suggestion =
                Suggestion.closest(to: misspelled, among: commandNames).map { "; did you mean '\($0)'?" } ?? ""
            Console.error(
                "error: unknown command '\(misspelled)'\(suggestion)\nThe commands are: \(commandNames.joined(separator: ", ")). See 'arvis --help'."
            )
            return CLIExit.usage.rawValue
        }
        var arguments = arguments
        if arguments.first == ServeCommand.configuration.commandName {
            do { arguments = ["serve"] + (try ServeSettings.arguments(Array(arguments.dropFirst()))) } catch {
                Console.error("error: \(error)")
                return CLIExit.usage.rawValue
            }
        }
        let command: any ParsableCommand
        do { command = try parseAsRoot(arguments) } catch { return argumentParserExit(for: error) }
        do {
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                var command = command
                try command.run()
            }
            return 0
        } catch let error where isArgumentParsers(error) {
            return argumentParserExit(for: error)
        } catch {
            // The one place a library's error becomes a message and an exit code.
            Console.error("error: \(error)")
            return CLIExit.code(for: error).rawValue
        }
    }

    /// Whether argument-parser made `error` (help asked for, a validation failure, an exit code a
    /// command already reported): those it prints itself.
    private static func isArgumentParsers(_ error: any Error) -> Bool {
        String(reflecting: type(of: error)).hasPrefix("ArgumentParser.")
    }

    /// Argument-parser's own errors, help and exit codes, printed its way.
    private static func argumentParserExit(for error: any Error) -> Int32 {
        let code = exitCode(for: error)
        if code == .success {
            try? Console.write(fullMessage(for: error) + "\n")
            return 0
        }
        let message = fullMessage(for: error)
        if !message.isEmpty { Console.error(message) }
        // Usage errors are exit 2, as for most Unix tools (argument-parser's default is 64).
        return code == .validationFailure ? CLIExit.usage.rawValue : code.rawValue
    }
}

extension ARVisCommand {
    /// The subcommands' names, in help order.
    static var commandNames: [String] {
        configuration.subcommands.map { $0.configuration.commandName ?? String(describing: $0).lowercased() }
    }

    /// The first argument, when it looks like a command name (not an option) but names none.
    static func unknownCommand(in arguments: [String]) -> String? {
        guard let first = arguments.first, !first.hasPrefix("-") else { return nil }
        return commandNames.contains(first) || first == "help" ? nil : first
    }
}

/// The exit codes of `arvis`, in one place.
enum CLIExit: Int32 {
    case success = 0
    /// A spec has errors.
    case specErrors = 1
    /// Bad arguments, or input that could not be read.
    case usage = 2

    var exitCode: ExitCode { ExitCode(rawValue) }

    /// The one mapping from the libraries' errors to exit codes (``ARVisCommand/run(arguments:)``
    /// prints the error and exits with it): problems of the input (a spec, a
    /// plan, a drawing too large for its limits) are 1; the machine's (fonts, files) are 2.
    static func code(for error: any Error) -> CLIExit {
        switch error {
        case let failure as CommandFailure: failure.exit
        case is SpecError, is RenderError, is ExportError, is ModelError: .specErrors
        case let error as PlantingError: error.code == .tooManyCells ? .usage : .specErrors
        case let error as GraphicsError: error.code == .canvasTooLarge ? .specErrors : .usage
        case let error as PipelineError:
            error.code == .limitExceeded || error.code == .invalidInput ? .specErrors : .usage
        default: .usage
        }
    }
}

/// A command's refusal of its input or its arguments, said once: ``ARVisCommand/run(arguments:)``
/// prints it as `error: MESSAGE` and exits with its code.
struct CommandFailure: Error, CustomStringConvertible {
    /// The exit code.
    var exit: CLIExit
    /// What went wrong and, where there is one, what to do.
    var description: String

    /// Arguments that cannot work together, or input that cannot be read: exit 2.
    static func usage(_ message: String) -> Self { Self(exit: .usage, description: message) }

    /// Input that was read but is wrong (a spec, a plan, a query that matches nothing): exit 1.
    static func input(_ message: String) -> Self { Self(exit: .specErrors, description: message) }
}
