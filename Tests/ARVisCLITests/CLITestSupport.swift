@testable import ARVisCLI

/// Runs `arvis` in-process with its output discarded and returns the exit code.
func arvis(_ arguments: [String]) async -> Int32 {
    await Console.$isSilenced.withValue(true) { await ARVisCommand.run(arguments: arguments) }
}
