import ARVisGraphics
public import ARVisStore
import Foundation
public import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
public import Logging
import NIOCore
import OpenAPIHummingbird
import OpenAPIRuntime
public import Prometheus
import ServiceLifecycle
import UnixSignals

/// `arvis serve`: the HTTP server over Hummingbird 2, its API handlers generated from `openapi.yaml`.
///
/// ```swift
/// try await ARVisServer.run(ServerConfiguration(dataDirectory: "arvis-data", port: 8080))
/// ```
public enum ARVisServer {
    /// The application for `configuration` on an open store: the router with every implemented
    /// operation behind a ``ServerResponder`` (one log line per request, request metrics), and
    /// `/metrics` emitting `metrics` (the process's metrics backend once ``run(_:logger:)`` has
    /// bootstrapped it).
    public static func application(
        _ configuration: ServerConfiguration, store: Store, logger: Logger,
        metrics: PrometheusCollectorRegistry = PrometheusCollectorRegistry()
    ) throws -> some ApplicationProtocol {
        try application(
            configuration, store: store, logger: logger, metrics: metrics, drain: Drain(),
            blobs: try blobStore(configuration))
    }

    /// The application, leaving through `drain` at a SIGTERM, keeping the gallery's files in `blobs`.
    static func application(
        _ configuration: ServerConfiguration, store: Store, logger: Logger, metrics: PrometheusCollectorRegistry,
        drain: Drain, blobs: any BlobStore
    ) throws -> some ApplicationProtocol {
        let router = Router(context: ServerContext.self)
        ServerMetrics.register(metrics, on: router)
        if ServerTracing.isOn(configuration, environment: ProcessInfo.processInfo.environment) {
            // Credentials in a query (a live stream's access_token, an asset link's grant) stay out of spans.
            router.middlewares.add(TracingMiddleware(redactingQueryParameters: ["access_token", "grant"]))
        }
        if !configuration.allowedOrigins.isEmpty {
            router.middlewares.add(CORSPolicyMiddleware(origins: configuration.allowedOrigins))
        }
        router.middlewares.add(MethodNotAllowedMiddleware(document: APIDocument.shared))
        router.middlewares.add(ModuleErrorMiddleware())
        let library = AssetLibrary(blobs: blobs, store: store, logger: logger)
        let services = ServerServices(store: store, configuration: configuration, library: library, drain: drain)
        let api = ARVisAPI(services: services)
        // Routes that limit per client see its address (sign-ins, sign-ups, spec checks, drawings); the
        // hub's cached spec files, its busiest route, do without the cost.
        let addressed = router.group().add(middleware: RequestAddressMiddleware())
        try api.registerHandlers(
            on: addressed,
            middlewares: [
                ErrorShapeMiddleware(), BodyLimitMiddleware(configuration: configuration),
            ])
        SpecRoutes(services: services).register(on: addressed)
        PlanRoutes(services: services).register(on: router)
        TreeModelRoutes(services: services).register(on: router)
        BubbleModelRoutes(services: services).register(on: router)
        DatasetRoutes(services: services).register(on: router)
        DocumentRoutes.register(on: router)
        let renderer = HubRenderer(fonts: try? FontLibrary.standard())
        let hub = HubRoutes(services: services, renderer: renderer)
        hub.register(on: router, drawing: addressed)
        PreviewRoutes(services: services, renderer: renderer).register(on: addressed)
        StudioPage.register(on: router, configuration: configuration)
        AssetRoutes(services: services).register(on: router)
        WebFile.register(on: router)
        let sfu = configuration.sfu.map { VideoRelay(endpoint: $0, secret: configuration.sfuSecret, logger: logger) }
        let exchange = store.isShared ? RoomExchange(store: store, logger: logger, sfu: sfu) : nil
        let live = LiveHub(
            store: store, logger: logger, exchange: exchange, membersPerRoom: configuration.roomMembers,
            connectionsPerAccount: configuration.liveConnectionsPerAccount
        ) { grant in try await services.recheck(grant) }
        let webSocketRouter = Router(context: ServerContext.self)
        LiveRoutes(services: services, hub: live, sfu: sfu).register(on: router, webSocketRouter: webSocketRouter)
        var running: [any Service] = [
            Housekeeper(store: store, logger: logger, library: library), live, library, MemoryReturn(),
        ]
        if let sfu { running.append(sfu) }
        let responder = ServerResponder(
            router: router.buildResponder(), hub: hub, answersHubReads: configuration.allowedOrigins.isEmpty,
            instruments: RequestInstruments())
        return Application(
            responder: responder, server: server(configuration, webSocketRouter: webSocketRouter),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port)),
            services: running, logger: logger)
    }

    /// Where the gallery's files are kept: the bucket of ``ServerConfiguration/blobStore``, else the
    /// folder ``ServerConfiguration/assetDirectory``.
    static func blobStore(
        _ configuration: ServerConfiguration, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> any BlobStore {
        guard let url = configuration.blobStore else {
            return FolderBlobStore(root: URL(fileURLWithPath: configuration.assetDirectory, isDirectory: true))
        }
        let location = try S3Location(url: url)
        guard let credentials = SigV4Signer.Credentials.fromEnvironment(environment) else {
            throw BlobStoreError(
                .failed, "--blob-store needs AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY in the environment")
        }
        return S3BlobStore(client: S3Client(location, credentials: credentials))
    }

    /// Fails with the reason when no Janus answers at `url` (its HTTP API), or it has no VideoRoom
    /// plugin; `secret`: its `api_secret`.
    public static func checkSFU(_ url: String, secret: String?) async throws {
        try await VideoRelay.check(endpoint: url, secret: secret)
    }

    /// HTTP/1.1 with WebSocket upgrades, behind a ``ConnectionGuard``: a connection gets
    /// ``ServerConfiguration/idleTimeout`` to send its first request's head and to stay idle
    /// between requests; WebSockets are pinged every 15 s (half-open ones close) and take frames
    /// of at most 64 KB.
    private static func server(_ configuration: ServerConfiguration, webSocketRouter: Router<ServerContext>)
        -> HTTPServerBuilder
    {
        let webSocket = WebSocketServerConfiguration(
            maxFrameSize: LiveRoutes.maximumMessageBytes, autoPing: .enabled(timePeriod: .seconds(15)))
        let idle = TimeAmount.milliseconds(Int64(max(1, min(configuration.idleTimeout, 86_400)) * 1_000))
        let webSocketResponder = webSocketRouter.buildResponder()
        return HTTPServerBuilder { responder in
            GuardedChannel(
                base: HTTP1WebSocketUpgradeChannel(
                    responder: responder, webSocketResponder: webSocketResponder,
                    configuration: .init(http1: .init(idleTimeout: idle), ws: webSocket)),
                headTimeout: idle)
        }
    }

    /// Opens the store (PostgreSQL at ``ServerConfiguration/databaseURL``, else SQLite under the data
    /// directory) and serves until SIGINT or SIGTERM, then shuts down gracefully: ``Drain`` first
    /// (live connections told to reconnect elsewhere), then the server (no new connections, the
    /// requests under way finished).
    /// - Throws: ``StoreError`` when the database cannot be opened; the server's own errors.
    public static func run(_ configuration: ServerConfiguration, logger: Logger = Logger(label: "arvis.serve"))
        async throws
    {
        let store: Store
        if let url = configuration.databaseURL {
            store = try await Store.open(postgres: url, logger: logger)
        } else {
            try FileManager.default.createDirectory(
                atPath: configuration.dataDirectory, withIntermediateDirectories: true)
            store = try await Store.open(sqliteAt: configuration.databasePath, logger: logger)
        }
        let metrics = PrometheusCollectorRegistry()
        ServerMetrics.bootstrap(metrics)
        do {
            let traces = try ServerTracing.bootstrap(configuration, logger: logger)
            let drain = Drain()
            let application = try application(
                configuration, store: store, logger: logger, metrics: metrics, drain: drain,
                blobs: try blobStore(configuration))
            // Shut down in reverse order: the drain, then the application, then the traces' exporter
            // (so the last requests' spans are sent).
            let group = ServiceGroup(
                configuration: .init(
                    services: (traces.map { [$0] } ?? []) + [application, DrainService(drain: drain, logger: logger)],
                    gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
            try await group.run()
        } catch {
            await store.close()
            throw error
        }
        await store.close()
    }
}
