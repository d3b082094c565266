import ARVisClient
import ArgumentParser
import Foundation
import OpenAPIRuntime

/// `arvis login`: signs in to a server and keeps the token for `push` and `pull`.
struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Sign in to an ARVis server and keep the token for push and pull.",
        discussion: """
            The password is read from standard input with --password-stdin, else asked for on the \
            terminal. The token is kept in ~/.config/arvis/credentials.json (owner-only); ARVIS_TOKEN, \
            when set, is used instead.

            Examples:
              arvis login http://127.0.0.1:8080 --username ana
              echo "$PASSWORD" | arvis login https://arvis.example --username ana --password-stdin
            """
    )

    @Argument(help: "The server, such as http://127.0.0.1:8080.")
    var server: String

    @Option(help: "The account's name.")
    var username: String

    @Flag(name: .customLong("password-stdin"), help: "Read the password from standard input.")
    var passwordFromStandardInput = false

    func run() async throws {
        let url = try ServerAddress(server).url
        let password = try readPassword()
        let client = ARVisClient.make(server: url)
        let output = try await RemoteCall.run {
            try await client.signIn(body: .json(.init(username: username, password: password)))
        }
        switch output {
        case .created(let created):
            let session = try created.body.json
            try Credentials.save(session.token, for: url)
            Console.error(
                "signed in to \(url.absoluteString) as \(username) until \(session.expiresAt.formatted(.iso8601))")
        case .unauthorized(let refusal): try RemoteCall.fail(try refusal.body.json)
        case .tooManyRequests(let refusal): try RemoteCall.fail(try refusal.body.json)
        case .badRequest(let refusal): try RemoteCall.fail(try refusal.body.json)
        default: try RemoteCall.unexpected(output)
        }
    }

    private func readPassword() throws -> String {
        if passwordFromStandardInput {
            guard let line = readLine(strippingNewline: true), !line.isEmpty else {
                throw ValidationError("no password on standard input")
            }
            return line
        }
        guard isatty(STDIN_FILENO) != 0, let typed = getpass("password for \(username): ") else {
            throw ValidationError("no terminal to ask for the password: pipe it in with --password-stdin")
        }
        return String(cString: typed)
    }
}
