// swift-tools-version: 6.1
// The libFuzzer target for the spec reader. Build it only with -sanitize=fuzzer (see README, Development).
// Sources/ARVisSpec and Sources/ARVisSpecYAML are links to the main package's modules, so the fuzzer and
// every module it reaches are instrumented for coverage.
import PackageDescription

let settings: [SwiftSetting] = [
    .swiftLanguageMode(.v6), .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"), .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "ARVisFuzz",
    dependencies: [.package(url: "https://github.com/jpsim/Yams", from: "6.0.0")],
    targets: [
        .target(name: "ARVisSpec", swiftSettings: settings),
        .target(name: "ARVisSpecYAML", dependencies: ["ARVisSpec", .product(name: "Yams", package: "Yams")], swiftSettings: settings),
        .executableTarget(
            name: "ARVisReaderFuzzer",
            dependencies: ["ARVisSpec", "ARVisSpecYAML"],
            swiftSettings: settings + [.unsafeFlags(["-parse-as-library"])]
        ),
    ]
)
