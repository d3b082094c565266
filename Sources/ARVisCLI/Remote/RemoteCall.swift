import ARVisClient
import ArgumentParser
import Foundation
import OpenAPIRuntime

/// What the remote commands share: calls that cannot reach the server, and refusals, become one
/// printed line and an exit code.
enum RemoteCall {
    /// Runs a call; a transport failure (no server, refused connection) is printed and exits 2.
    static func run<T>(_ call: () async throws -> T) async throws -> T {
        do {
            return try await call()
        } catch let error as ClientError {
            throw CommandFailure.usage(
                "the server cannot be reached or answered what the contract does not allow: \(error.underlyingError)")
        }
    }

    /// Prints the server's refusal (and what to do) and exits with `code`.
    static func fail(_ response: some Refusal, code: CLIExit = .usage, advice: String? = nil) throws {
        try fail(try response.error, code: code, advice: advice)
    }

    /// Prints the server's error (and what to do) and exits with `code`.
    static func fail(_ refusal: Components.Schemas._Error, code: CLIExit = .usage, advice: String? = nil) throws {
        Console.error("error: \(refusal.error.message)")
        if let advice { Console.error("    \(advice)") }
        throw code.exitCode
    }

    /// Prints an answer the command did not expect and exits 2.
    static func unexpected(_ output: Any) throws {
        throw CommandFailure.usage("the server answered \(String(describing: output).prefix(300))")
    }
}
