import ARVisPipeline
public import ARVisSpec
import ARVisSpecYAML
import ARVisSupport
public import ArgumentParser
import Foundation

/// A spec file read within a size limit, in the syntax ``SpecSyntax`` finds for it.
struct SpecInput {
    let path: String
    let data: Data
    let syntax: SpecSyntax

    /// The default limit on an input's size.
    static let defaultMaximumBytes = 32_000_000

    /// Reads `path` (`-` is standard input), at most `maximumBytes`; throws a usage-level error if it
    /// cannot be read.
    init(path: String, maximumBytes: Int = SpecInput.defaultMaximumBytes) throws(SpecError) {
        self.path = path
        do throws(PipelineError) {
            let bytes =
                path == "-"
                ? try BoundedRead.standardInput(maximumBytes: maximumBytes)
                : try BoundedRead.file(path, maximumBytes: maximumBytes)
            data = Data(bytes)
        } catch {
            let raise = error.code == .tooLarge ? " (raise the limit with --max-input-mb)" : ""
            throw SpecError(code: .unreadable, message: "cannot read \(error)\(raise)", cause: error)
        }
        syntax = SpecSyntax(path: path, bytes: data)
    }

    /// The file at `path`, for commands: when it cannot be read, the reason is printed and becomes
    /// exit code 2.
    static func open(_ path: String, maximumBytes: Int = SpecInput.defaultMaximumBytes) throws -> SpecInput {
        do { return try SpecInput(path: path, maximumBytes: maximumBytes) } catch {
            throw CommandFailure.usage("\(error.message)")
        }
    }

    /// The document in `path`, for commands that need a valid one: reading problems are printed and
    /// become exit code 2 (unreadable) or 1 (the spec has errors).
    static func document(at path: String, options: ReadingOptions) throws -> SpecDocument {
        let result = try open(path, maximumBytes: options.maximumBytes).read(options: options.readOptions)
        guard let document = result.document else {
            for diagnostic in result.diagnostics where diagnostic.severity == .error {
                Console.error(diagnostic.description)
            }
            throw CLIExit.specErrors.exitCode
        }
        return document
    }

    /// The document and its diagnostics.
    func read(options: ReadOptions) -> ReadResult {
        syntax.read(data, file: path, options: options)
    }
}

/// The options every reading command shares.
struct ReadingOptions: ParsableArguments {
    @Flag(help: "Treat warnings (unknown keys, trailing commas, iARVis incompatibilities) as errors.")
    var strict = false

    @Option(help: "Read the document as this kind instead of detecting it: environment, component or chart.")
    var kind: DocumentKind?

    @Option(name: .customLong("max-depth"), help: "The deepest nesting accepted, from 1 to 1000.")
    var maximumDepth = ReadOptions.defaultMaximumDepth

    @Option(name: .customLong("max-input-mb"), help: "The largest input accepted, in megabytes.")
    var maximumMegabytes = SpecInput.defaultMaximumBytes / 1_000_000

    var readOptions: ReadOptions { ReadOptions(kind: kind, strict: strict, maximumDepth: maximumDepth) }

    /// The largest input accepted, in bytes.
    var maximumBytes: Int { maximumMegabytes.multipliedReportingOverflow(by: 1_000_000).partialValue }

    func validate() throws {
        guard (1...ReadOptions.largestMaximumDepth).contains(maximumDepth) else {
            throw ValidationError(
                "--max-depth must be between 1 and \(ReadOptions.largestMaximumDepth): deeper documents would exhaust the stack"
            )
        }
        guard (1...2_000).contains(maximumMegabytes) else {
            throw ValidationError("--max-input-mb must be between 1 and 2000")
        }
    }
}

extension DocumentKind: ExpressibleByArgument {}
