import ARVisServer
import ARVisSpec
import ArgumentParser
import Foundation

/// `arvis serve`: the ARVis server.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract:
            "Run the ARVis server and ARVis Studio: accounts, projects, specs with versions, the spec hub, live rooms and the gallery.",
        discussion: """
            Everything is kept in one SQLite file under --data (created if needed), or in PostgreSQL with
            --database postgres://…; the schema is migrated at start. The server logs one
            line per request and stops gracefully on Ctrl-C or SIGTERM. The API is described in \
            openapi.yaml; a spec saved in a project that is unlisted or public opens on any device at \
            /s/PROJECT/NAME (a page with its widgets and QR code) and /s/PROJECT/NAME.json (for iARVis). \
            ARVis Studio, the browser app for all of it, is at / (open http://127.0.0.1:8080/).

            Every option is also an environment variable, ARVIS_ and its name in capitals (ARVIS_DATABASE, \
            ARVIS_PUBLIC_URL, ARVIS_ICE_SERVER=a,b for a repeatable one, ARVIS_RELAY_ONLY=true for a flag), \
            and a key of the YAML file --config names. Several instances share one PostgreSQL --database and \
            one --blob-store behind a load balancer (docs/deploy.md); /health/live and /health/ready answer \
            an orchestrator's probes. On SIGTERM an instance stops taking live connections, closes those it \
            has with 1012 (reconnect elsewhere), then stops accepting and finishes the requests under way.

            Examples:
              arvis serve
              arvis serve --data /var/lib/arvis --host 0.0.0.0 --public-url https://arvis.example
              ARVIS_TURN_SECRET=… arvis serve --ice-server stun:turn.example:3478 --ice-server turn:turn.example:3478
              arvis serve --sfu http://127.0.0.1:8088/janus
              ARVIS_DATABASE=postgres://arvis@db/arvis arvis serve --blob-store 's3://arvis?endpoint=http://s3:8333'
              arvis serve --config /etc/arvis/serve.yaml
              curl -s http://127.0.0.1:8080/health
            """
    )

    @Option(help: "The folder the database and (without --blob-store) the gallery's files live in.")
    var data = "arvis-data"

    @Option(
        name: .customLong("blob-store"),
        help: ArgumentHelp(
            "Keep the gallery's files (uploads, conversions, thumbnails) in an S3 bucket that several instances share, with credentials from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY; the bucket is made if missing. Copy a --data folder's files there with arvis admin migrate-blobs.",
            valueName: "s3://bucket?endpoint=http://127.0.0.1:8333&region=us-east-1"))
    var blobStore: String?

    @Option(
        help: ArgumentHelp(
            "A YAML file of these options by long name (port: 8080, ice-server: [stun:a:3478], relay-only: true); the environment (ARVIS_PORT, …) and the command line win over it.",
            valueName: "file"))
    var config: String?

    @Option(
        help: ArgumentHelp(
            "Keep everything in PostgreSQL instead of SQLite: postgres://user:password@host:5432/database[?sslmode=require].",
            valueName: "url"))
    var database: String?

    @Option(help: "The address to listen on (0.0.0.0 for every interface).")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on, 1 to 65535.")
    var port = 8080

    @Option(
        name: .customLong("public-url"),
        help: "The address devices reach the server at, for hub links and QR codes (default: the request's Host).")
    var publicURL: String?

    @Option(
        name: .customLong("cors-origin"),
        help: ArgumentHelp(
            "Let browser pages from this origin call the API (CORS); repeatable, * for any. Off by default.",
            valueName: "https://studio.example"))
    var corsOrigins: [String] = []

    @Option(name: .customLong("max-spec-mb"), help: "The largest spec accepted, in megabytes, 1 to 100.")
    var maximumSpecMegabytes = 5

    @Option(
        name: .customLong("max-asset-mb"),
        help: "The largest 3D model accepted for the gallery, in megabytes, 1 to 4000.")
    var maximumAssetMegabytes = 200

    @Option(
        name: .customLong("map-tiles"),
        help: ArgumentHelp(
            "The map tiles ARVis Studio's planting map offers, a URL template with {z}, {x} and {y}; none for the metric grid only.",
            valueName: "url"))
    var mapTiles = ServerConfiguration.openStreetMapTiles

    @Option(
        name: .customLong("otlp-endpoint"),
        help: ArgumentHelp(
            "Send OpenTelemetry traces over OTLP/HTTP to this collector (to its /v1/traces), e.g. http://collector:4318: a span per request, per database call and per live fan-out, carried across instances with W3C traceparent. Off without it (or OTEL_EXPORTER_OTLP_ENDPOINT); the OTEL_* variables refine it (OTEL_EXPORTER_OTLP_PROTOCOL=http/json, OTEL_SERVICE_NAME, OTEL_TRACES_SAMPLER).",
            valueName: "url"))
    var otlpEndpoint: String?

    @OptionGroup(title: "Video in rooms")
    var video: ServeVideoOptions

    @OptionGroup(title: "Abuse limits")
    var limits: ServeLimitOptions

    func validate() throws {
        guard (1...65_535).contains(port) else { throw ValidationError("--port must be between 1 and 65535") }
        guard !host.isEmpty else { throw ValidationError("--host must not be empty") }
        guard (1...100).contains(maximumSpecMegabytes) else {
            throw ValidationError("--max-spec-mb must be between 1 and 100")
        }
        guard (1...4000).contains(maximumAssetMegabytes) else {
            throw ValidationError("--max-asset-mb must be between 1 and 4000")
        }
        if let blobStore, let problem = ServerConfiguration.blobStoreProblem(blobStore) {
            throw ValidationError("--blob-store: \(problem)")
        }
        if let otlpEndpoint, let problem = ServerConfiguration.traceEndpointProblem(otlpEndpoint) {
            throw ValidationError("--otlp-endpoint: \(problem)")
        }
        if let database, !(database.hasPrefix("postgres://") || database.hasPrefix("postgresql://")) {
            throw ValidationError(
                "--database takes a PostgreSQL URL such as postgres://arvis:secret@127.0.0.1:5432/arvis")
        }
        guard mapTiles == "none" || ServerConfiguration.mapTileOrigin(mapTiles) != nil else {
            throw ValidationError("--map-tiles must be an http(s) URL template with {z}, {x} and {y}, or none")
        }
        try video.validate()
        if let publicURL {
            guard let url = URL(string: publicURL), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
                url.host != nil,
                url.query == nil, url.fragment == nil
            else {
                throw ValidationError(
                    "--public-url must be an http or https address such as https://arvis.example, without a query")
            }
        }
    }

    func run() async throws {
        ServerLogHandler.bootstrap()
        var configuration = ServerConfiguration(
            dataDirectory: data, databaseURL: database, host: host, port: port, publicURL: publicURL,
            maximumSpecBytes: maximumSpecMegabytes * 1_000_000, allowedOrigins: Set(corsOrigins),
            maximumAssetBytes: maximumAssetMegabytes * 1_000_000, mapTiles: mapTiles == "none" ? nil : mapTiles)
        configuration.blobStore = blobStore
        configuration.traceEndpoint = otlpEndpoint
        limits.apply(to: &configuration)
        video.apply(to: &configuration)
        try await video.checkSFU()
        let place = database == nil ? configuration.databasePath : "PostgreSQL"
        Console.error("ARVis \(ARVisVersion.current) serving http://\(host):\(port) (data in \(place))")
        try await ARVisServer.run(configuration)
    }
}
