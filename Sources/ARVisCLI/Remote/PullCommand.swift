import ARVisClient
import ArgumentParser
import Foundation
import OpenAPIRuntime

/// `arvis pull`: fetches a spec as it was saved.
struct PullCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pull",
        abstract: "Fetch a spec from an ARVis server, byte for byte as it was saved.",
        discussion: """
            Specs of unlisted and public projects need no sign-in; private ones use the token of \
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
        let location = try SpecLocation(url)
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
