import ARVisServer
import ARVisSpec
import ArgumentParser
import Foundation

/// `arvis serve`: the ARVis server.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the ARVis server: accounts, projects and the API of openapi.yaml.",
        discussion: """
            Everything is kept in one SQLite file under --data (created if needed). The server logs one
            line per request and stops gracefully on Ctrl-C or SIGTERM. This stage serves health,
            accounts (sign up, sign in, sign out, password change, deletion) and projects; specs, the
            spec hub, planting and anchors follow.

            Examples:
              arvis serve
              arvis serve --data /var/lib/arvis --host 0.0.0.0 --port 8080
              curl -s http://127.0.0.1:8080/health
            """
    )

    @Option(help: "The folder the database lives in.")
    var data = "arvis-data"

    @Option(help: "The address to listen on (0.0.0.0 for every interface).")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on, 1 to 65535.")
    var port = 8080

    func validate() throws {
        guard (1...65_535).contains(port) else { throw ValidationError("--port must be between 1 and 65535") }
        guard !host.isEmpty else { throw ValidationError("--host must not be empty") }
    }

    func run() async throws {
        let configuration = ServerConfiguration(dataDirectory: data, host: host, port: port)
        Console.error("ARVis \(ARVisVersion.current) serving http://\(host):\(port) (data in \(configuration.databasePath))")
        try await CLIExit.reportingAsync { try await ARVisServer.run(configuration) }
    }
}
