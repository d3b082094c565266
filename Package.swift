// swift-tools-version: 6.1
import PackageDescription

/// One set of Swift settings for every target: Swift 6 mode plus the upcoming features the house uses.
let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// The test targets' settings: their own code is not optimised even in a release build. `swift test -c
/// release` (CI's) tests the optimised modules users get; optimising the suites' expanded test macros
/// too took a quarter of the build's time and bought nothing.
let testSettings = swiftSettings + [.unsafeFlags(["-Onone"], .when(configuration: .release))]

let package = Package(
    name: "ARVis",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "ARVisSupport", targets: ["ARVisSupport"]),
        .library(name: "ARVisSpec", targets: ["ARVisSpec"]),
        .library(name: "ARVisSpecYAML", targets: ["ARVisSpecYAML"]),
        .library(name: "ARVisGraphics", targets: ["ARVisGraphics"]),
        .library(name: "ARVisRender", targets: ["ARVisRender"]),
        .library(name: "ARVisSpatial", targets: ["ARVisSpatial"]),
        .library(name: "ARVisPlanting", targets: ["ARVisPlanting"]),
        .library(name: "ARVisModel", targets: ["ARVisModel"]),
        .library(name: "ARVisPipeline", targets: ["ARVisPipeline"]),
        .library(name: "ARVisClient", targets: ["ARVisClient"]),
        .executable(name: "arvis", targets: ["arvis"]),
        .executable(name: "arvis-bench", targets: ["arvis-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        // The server (issue 11): Hummingbird, its handlers generated from openapi.yaml, the store on SQLKit.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        // Live specs, rooms and data (issue 12): WebSocket server and client.
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.0"),
        .package(url: "https://github.com/apple/swift-openapi-generator", from: "1.14.0"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.0"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession", from: "1.4.0"),
        .package(url: "https://github.com/hummingbird-project/swift-openapi-hummingbird", from: "2.1.0"),
        .package(url: "https://github.com/vapor/sqlite-kit", from: "4.5.0"),
        .package(url: "https://github.com/vapor/postgres-kit", from: "2.17.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.36.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.5.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        // The server's hashes and HMAC (already in the graph through hummingbird-auth and postgres-nio).
        .package(url: "https://github.com/apple/swift-crypto", "3.12.0"..<"5.0.0"),
        // The server's HTTP client, for Janus's API (already in the graph through HummingbirdTesting).
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.30.0"),
        // OpenTelemetry traces over OTLP/HTTP (issue 31); only the HTTP exporter, so gRPC is not built.
        .package(url: "https://github.com/swift-otel/swift-otel", from: "1.6.0", traits: ["OTLPHTTP"]),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.3.0"),
    ],
    targets: [
        // Core support every module shares: the one error contract, conversions that cannot trap. No imports.
        .target(name: "ARVisSupport", swiftSettings: swiftSettings),
        // The server's wire vocabulary: entity tags, digest fields, live cursors, dataset rows. Foundation
        // only, apart from the server, so the fuzzers link it.
        .target(name: "ARVisWire", dependencies: ["ARVisSupport"], swiftSettings: swiftSettings),
        // Core: the grammar. Foundation only, so iOS apps can link it.
        .target(name: "ARVisSpec", dependencies: ["ARVisSupport"], swiftSettings: swiftSettings),
        // Drawing vocabulary, TrueType fonts, and the SVG / PNG / HTML writers. Foundation only; knows no specs
        // (every writer follows ARVisSupport's one link rule, LinkPolicy).
        .target(name: "ARVisGraphics", dependencies: ["ARVisSupport"], swiftSettings: swiftSettings),
        // Spec -> drawing: layout, Markdown text, media, tables and the chart engine. Foundation only.
        .target(
            name: "ARVisRender", dependencies: ["ARVisSupport", "ARVisSpec", "ARVisGraphics"],
            swiftSettings: swiftSettings),
        // 3D math, cameras, pose packets, remote annotation, session gating, registration. Foundation only.
        .target(name: "ARVisSpatial", dependencies: ["ARVisSupport", "ARVisSpec"], swiftSettings: swiftSettings),
        // 3D assets: GLB and USDZ read and written, inspected against AR budgets, drawn as thumbnails
        // without a GPU; composed scenes written as glTF 2.0 / GLB. Foundation only.
        .target(
            name: "ARVisModel", dependencies: ["ARVisSupport", "ARVisSpatial", "ARVisSpec", "ARVisGraphics"],
            swiftSettings: swiftSettings),
        // Spacing-constrained tree planting, areas on the map, GeoJSON, the species catalog, SVG plans.
        // Foundation only.
        .target(
            name: "ARVisPlanting", dependencies: ["ARVisSupport", "ARVisSpatial", "ARVisSpec", "ARVisGraphics"],
            swiftSettings: swiftSettings),
        // The work that joins the engines, shared by the CLI and the server: resources loaded under a
        // safe policy, ... Foundation only.
        .target(
            name: "ARVisPipeline",
            dependencies: [
                "ARVisSupport", "ARVisSpec", "ARVisGraphics", "ARVisRender", "ARVisSpatial", "ARVisModel",
                "ARVisPlanting",
            ],
            swiftSettings: swiftSettings
        ),
        // YAML front end for the reader (Yams lives here, not in the core).
        .target(
            name: "ARVisSpecYAML",
            dependencies: ["ARVisSupport", "ARVisSpec", .product(name: "Yams", package: "Yams")],
            swiftSettings: swiftSettings
        ),
        // Accounts, projects, roles, specs with versions, planting and anchors, over SQLKit (SQLite embedded, or PostgreSQL).
        .target(
            name: "ARVisStore",
            dependencies: [
                "ARVisSupport", .product(name: "SQLiteKit", package: "sqlite-kit"),
                .product(name: "PostgresKit", package: "postgres-kit"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: swiftSettings
        ),
        // `arvis serve`: HTTP over Hummingbird 2, handlers implementing the protocol generated from openapi.yaml.
        .target(
            name: "ARVisServer",
            dependencies: [
                "ARVisSupport", "ARVisWire", "ARVisSpec", "ARVisSpecYAML", "ARVisGraphics", "ARVisRender",
                "ARVisSpatial", "ARVisPipeline", "ARVisStore",
                "ARVisModel", .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIHummingbird", package: "swift-openapi-hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "OTel", package: "swift-otel"),
            ],
            exclude: ["Web/Files", "Web/Templates"],
            swiftSettings: swiftSettings,
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator"), "EmbedFiles"]
        ),
        // Build time: the server's browser code, page templates and openapi.yaml as Swift strings (nothing generated is committed).
        .executableTarget(name: "embed-files", swiftSettings: swiftSettings),
        .plugin(name: "EmbedFiles", capability: .buildTool(), dependencies: ["embed-files"]),
        // A client of the server, generated from the same openapi.yaml (URLSession transport: iOS apps link
        // it), and the live spec watcher (WebSocket over SwiftNIO, which runs on iOS too).
        .target(
            name: "ARVisClient",
            dependencies: [
                "ARVisSupport", "ARVisSpec",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
            ],
            swiftSettings: swiftSettings,
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        ),
        // The command-line commands, as a library so tests can drive them.
        .target(
            name: "ARVisCLI",
            dependencies: [
                "ARVisSupport", "ARVisSpec", "ARVisSpecYAML", "ARVisGraphics", "ARVisRender", "ARVisSpatial",
                "ARVisPlanting", "ARVisPipeline",
                "ARVisModel", "ARVisServer", "ARVisClient",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(name: "arvis", dependencies: ["ARVisCLI"], swiftSettings: swiftSettings),
        .executableTarget(
            name: "arvis-bench",
            dependencies: [
                "ARVisSupport", "ARVisSpec", "ARVisGraphics", "ARVisRender", "ARVisSpatial", "ARVisPlanting",
                "ARVisModel",
                "ARVisServer", "ARVisStore", .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "ARVisTestSupport", dependencies: ["ARVisSupport", "ARVisSpatial"],
            swiftSettings: testSettings),
        .testTarget(
            name: "ARVisSpecTests",
            dependencies: ["ARVisSupport", "ARVisSpec", "ARVisTestSupport"],
            swiftSettings: testSettings
        ),
        .testTarget(
            name: "ARVisWireTests",
            dependencies: ["ARVisSupport", "ARVisWire"],
            swiftSettings: testSettings
        ),
        .testTarget(
            name: "ARVisGraphicsTests",
            dependencies: ["ARVisGraphics", "ARVisTestSupport"],
            exclude: ["Pictures"],
            swiftSettings: testSettings
        ),
        .testTarget(
            name: "ARVisRenderTests",
            dependencies: ["ARVisRender", "ARVisTestSupport"],
            exclude: ["Golden", "LookSpecs"],
            swiftSettings: testSettings
        ),
        .testTarget(
            name: "ARVisSpatialTests",
            dependencies: ["ARVisSpatial", "ARVisTestSupport"],
            swiftSettings: testSettings
        ),
        .testTarget(
            name: "ARVisModelTests",
            dependencies: ["ARVisModel", "ARVisTestSupport"],
            exclude: ["Findings"],
            swiftSettings: testSettings
        ),
        .testTarget(
            name: "ARVisPlantingTests",
            dependencies: ["ARVisPlanting", "ARVisTestSupport"],
            swiftSettings: testSettings
        ),
        .testTarget(
            name: "ARVisSpecYAMLTests",
            dependencies: ["ARVisSpecYAML", "ARVisTestSupport"],
            exclude: ["Findings"],
            swiftSettings: testSettings
        ),
        .testTarget(
            name: "ARVisPipelineTests",
            dependencies: [
                "ARVisSupport", "ARVisPipeline", "ARVisModel", "ARVisPlanting", "ARVisSpatial", "ARVisTestSupport",
            ],
            swiftSettings: testSettings
        ),
        .testTarget(
            name: "ARVisStoreTests",
            dependencies: [
                "ARVisStore", "ARVisTestSupport", .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: testSettings
        ),
        .testTarget(
            name: "ARVisServerTests",
            dependencies: [
                "ARVisServer", "ARVisStore", "ARVisSpatial", "ARVisModel", "ARVisGraphics", "ARVisTestSupport",
                "ARVisSupport", "ARVisSpec", "ARVisRender", "ARVisPlanting", "ARVisPipeline", "ARVisClient",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ],
            swiftSettings: testSettings
        ),
        .testTarget(
            name: "ARVisCLITests",
            dependencies: ["ARVisCLI", "ARVisTestSupport"],
            swiftSettings: testSettings
        ),
    ]
)

// `ARVIS_PACKAGE=core` declares only the Foundation-only part: every target whose dependencies are
// such targets or Yams, their suites, and Yams. AddressSanitizer's run in CI builds only this part
// (Scripts/sanitized_tests.sh address --core): the code that handles memory by hand lives there, and
// the rest of the suite runs un-instrumented in CI's `swift test` (docs/fuzzing.md, "In CI").
if Context.environment["ARVIS_PACKAGE"] == "core" {
    var core: Set<String> = []
    func isCore(_ dependency: Target.Dependency) -> Bool {
        switch dependency {
        case .targetItem(let name, _), .byNameItem(let name, _): core.contains(name)
        case .productItem(_, let package, _, _): package == "Yams"
        @unknown default: false
        }
    }
    var grown = true
    while grown {
        let next = package.targets.filter { $0.type != .plugin && $0.dependencies.allSatisfy(isCore) }.map(\.name)
        grown = next.count > core.count
        core = Set(next)
    }
    package.targets.removeAll { !core.contains($0.name) || $0.type == .executable }
    package.products.removeAll { !core.contains($0.name) }  // each product is named after its one target
    package.dependencies.removeAll {
        guard case .sourceControl(_, let location, _) = $0.kind else { return true }
        return !location.hasSuffix("/Yams")
    }
}
