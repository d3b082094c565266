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
            The password is read from standard input with --password-stdin, else asked for on the
            terminal. The token is kept in ~/.config/arvis/credentials.json (owner-only); ARVIS_TOKEN,
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

/// `arvis push`: saves a spec file as a new version on a server.
struct PushCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "push",
        abstract: "Save a spec file (JSON or YAML) as the newest version of a spec on an ARVis server.",
        discussion: """
            The server validates it first: problems are printed as `arvis validate` prints them and
            nothing is saved. With --if-match, a spec saved by someone else since that ETag is refused
            (412) and nothing is lost. Sign in first with `arvis login`.

            With --watch it stays and pushes again on every save of the file: edit in any editor,
            and every device following the spec (`arvis watch`, the phone page, iARVis polling)
            updates. A save that does not validate is reported and skipped; the next one is pushed.

            Examples:
              arvis push museum.json http://127.0.0.1:8080/s/museum/tour
              arvis push museum.json http://127.0.0.1:8080/s/museum/tour --watch
              arvis push label.yaml https://arvis.example/s/museum/label --if-match '"3-5f2a…"'
            """
    )

    @Argument(help: "The spec file (- reads standard input).")
    var file: String

    @Argument(help: "The spec's URL: …/s/PROJECT/NAME or …/api/v1/projects/PROJECT/specs/NAME.")
    var url: String

    @Option(
        name: .customLong("if-match"),
        help:
            "Only save over this ETag (from a pull or an earlier push); with --watch, each push's ETag guards the next."
    )
    var ifMatch: String?

    @Flag(help: "Keep running and push again whenever the file changes (checked every 100 ms).")
    var watch = false

    func validate() throws {
        if watch, file == "-" { throw ValidationError("--watch needs a file, not standard input") }
    }

    func run() async throws {
        let location = try CLIExit.reporting { try SpecLocation(url) }
        let client = ARVisClient.make(server: location.server, token: Credentials.token(for: location.server))
        guard watch else {
            _ = try await push(
                try SpecInput.open(file, maximumBytes: 100_000_000).data, to: location, client: client, ifMatch: ifMatch
            )
            return
        }
        var guardTag = ifMatch
        var pushed: Data?
        Console.error("watching \(file); pushing each save to \(url) (Ctrl-C stops)")
        while true {
            if let bytes = try? Data(contentsOf: URL(fileURLWithPath: file)), bytes != pushed {
                pushed = bytes
                do {
                    let etag = try await push(bytes, to: location, client: client, ifMatch: guardTag)
                    if guardTag != nil { guardTag = etag }
                } catch {
                    Console.error("not pushed; waiting for the next save")
                }
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// Pushes `bytes` once; returns the new version's ETag.
    private func push(_ bytes: Data, to location: SpecLocation, client: Client, ifMatch: String?) async throws
        -> String?
    {
        let output = try await RemoteCall.run {
            try await client.putSpec(
                path: .init(project: location.project, name: location.name), headers: .init(ifMatch: ifMatch),
                body: .yaml(HTTPBody(bytes)))
        }
        switch output {
        case .ok(let saved): return try report(try saved.body.json, etag: saved.headers.eTag)
        case .created(let saved): return try report(try saved.body.json, etag: saved.headers.eTag)
        case .unprocessableContent(let invalid):
            let body = try invalid.body.json
            for diagnostic in body.value2.diagnostics {
                let place = diagnostic.path.isEmpty ? "" : "\(diagnostic.path): "
                Console.error(
                    "\(file):\(diagnostic.line):\(diagnostic.column): \(diagnostic.severity.rawValue): \(place)\(diagnostic.message)"
                )
                if let hint = diagnostic.hint { Console.error("    hint: \(hint)") }
            }
            Console.error("error: \(body.value1.error.message)")
            throw CLIExit.specErrors.exitCode
        case .preconditionFailed(let refusal): try RemoteCall.fail(try refusal.body.json, code: .specErrors)
        case .unauthorized(let refusal):
            try RemoteCall.fail(
                try refusal.body.json,
                advice: "sign in with: arvis login \(location.server.absoluteString) --username NAME")
        case .forbidden(let refusal): try RemoteCall.fail(try refusal.body.json)
        case .notFound(let refusal): try RemoteCall.fail(try refusal.body.json)
        case .badRequest(let refusal): try RemoteCall.fail(try refusal.body.json)
        case .contentTooLarge(let refusal): try RemoteCall.fail(try refusal.body.json)
        case .unsupportedMediaType(let refusal): try RemoteCall.fail(try refusal.body.json)
        default: try RemoteCall.unexpected(output)
        }
        return nil
    }

    private func report(_ saved: Components.Schemas.SavedVersion, etag: String?) throws -> String {
        for diagnostic in saved.diagnostics ?? [] {
            Console.error(
                "\(file):\(diagnostic.line):\(diagnostic.column): \(diagnostic.severity.rawValue): \(diagnostic.message)"
            )
        }
        Console.error("saved version \(saved.version) of \(url) (ETag \(etag ?? saved.etag))")
        return etag ?? saved.etag
    }
}

/// `arvis pull`: fetches a spec as it was saved.
struct PullCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pull",
        abstract: "Fetch a spec from an ARVis server, byte for byte as it was saved.",
        discussion: """
            Specs of unlisted and public projects need no sign-in; private ones use the token of
            `arvis login`. The ETag is printed on standard error, for push --if-match.

            Examples:
              arvis pull http://127.0.0.1:8080/s/museum/tour -o tour.json
              arvis pull http://127.0.0.1:8080/s/museum/tour --version 3
            """
    )

    @Argument(help: "The spec's URL: …/s/PROJECT/NAME or …/api/v1/projects/PROJECT/specs/NAME.")
    var url: String

    @Option(help: "An earlier version (default: the newest).")
    var version: Int?

    @Option(name: .shortAndLong, help: "Where to write it (default: standard output).")
    var output: String?

    func validate() throws {
        if let version, version < 1 { throw ValidationError("--version counts from 1") }
    }

    func run() async throws {
        let location = try CLIExit.reporting { try SpecLocation(url) }
        let client = ARVisClient.make(server: location.server, token: Credentials.token(for: location.server))
        let path = (project: location.project, name: location.name)
        let body: HTTPBody
        let etag: String?
        // Asked for as YAML, the server sends the stored bytes whatever the syntax (JSON is YAML too).
        if let version {
            let result = try await RemoteCall.run {
                try await client.getSpecVersion(
                    path: .init(project: path.project, name: path.name, version: version),
                    headers: .init(accept: [.init(contentType: .yaml)]))
            }
            switch result {
            case .ok(let found): (body, etag) = (try found.body.yaml, found.headers.eTag)
            case .notFound(let refusal): return try RemoteCall.fail(try refusal.body.json)
            case .unauthorized(let refusal): return try RemoteCall.fail(try refusal.body.json)
            default: return try RemoteCall.unexpected(result)
            }
        } else {
            let result = try await RemoteCall.run {
                try await client.getSpec(
                    path: .init(project: path.project, name: path.name),
                    headers: .init(accept: [.init(contentType: .yaml)]))
            }
            switch result {
            case .ok(let found): (body, etag) = (try found.body.yaml, found.headers.eTag)
            case .notModified: return
            case .notFound(let refusal): return try RemoteCall.fail(try refusal.body.json)
            case .unauthorized(let refusal): return try RemoteCall.fail(try refusal.body.json)
            default: return try RemoteCall.unexpected(result)
            }
        }
        let bytes = try await Data(collecting: body, upTo: 100_000_000)
        if let output, output != "-" {
            try bytes.write(to: URL(fileURLWithPath: output), options: .atomic)
        } else {
            try Console.write(bytes)
        }
        Console.error("pulled \(url)\(etag.map { " (ETag \($0))" } ?? "")")
    }
}

/// What the remote commands share: calls that cannot reach the server, and refusals, become one
/// printed line and an exit code.
enum RemoteCall {
    /// Runs a call; a transport failure (no server, refused connection) is printed and exits 2.
    static func run<T>(_ call: () async throws -> T) async throws -> T {
        do {
            return try await call()
        } catch let error as ClientError {
            Console.error(
                "error: the server cannot be reached or answered what the contract does not allow: \(error.underlyingError)"
            )
            throw CLIExit.usage.exitCode
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
        Console.error("error: the server answered \(String(describing: output).prefix(300))")
        throw CLIExit.usage.exitCode
    }
}
