import ARVisClient
import ArgumentParser
import Foundation
import OpenAPIRuntime

/// `arvis push`: saves a spec file as a new version on a server.
struct PushCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "push",
        abstract: "Save a spec file (JSON or YAML) as the newest version of a spec on an ARVis server.",
        discussion: """
            The server validates it first: problems are printed as `arvis validate` prints them and \
            nothing is saved. With --if-match, a spec saved by someone else since that ETag is refused \
            (412) and nothing is lost. Sign in first with `arvis login`.

            With --watch it stays and pushes again on every save of the file: edit in any editor, \
            and every device following the spec (`arvis watch`, the phone page, iARVis polling) \
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
        let location = try SpecLocation(url)
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
            throw CommandFailure.input("\(body.value1.error.message)")
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
