import ARVisClient
import ArgumentParser
import Foundation

/// A server named on the command line, such as `http://127.0.0.1:8080`: its scheme, host and port.
struct ServerAddress {
    /// The server's URL, as `arvis login` keeps its token.
    let url: URL

    /// Reads `text`; anything but an http or https address with a host is a usage error.
    init(_ text: String) throws {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            url.host != nil
        else {
            throw ValidationError("'\(text)' is not an http or https server address, such as http://127.0.0.1:8080")
        }
        self.url = url
    }

    /// A client of the server with the token `arvis login` kept for it (or `ARVIS_TOKEN`).
    var client: Client { ARVisClient.make(server: url, token: Credentials.token(for: url)) }

    /// What to do when the server asks who is calling.
    var signInAdvice: String { "sign in with: arvis login \(url.absoluteString) --username NAME" }
}

/// The server a remote command talks to, as its first argument.
struct ServerArgument: ParsableArguments {
    @Argument(help: "The server, such as http://127.0.0.1:8080.")
    var server: String

    /// The server's address; a usage error when it is not an http or https address.
    func address() throws -> ServerAddress { try ServerAddress(server) }
}

/// A server and one of its projects, as a command's first two arguments.
struct ProjectArguments: ParsableArguments {
    @OptionGroup var server: ServerArgument

    @Argument(help: "The project's slug.")
    var project: String

    /// The server's address; a usage error when it is not an http or https address.
    func address() throws -> ServerAddress { try server.address() }
}
