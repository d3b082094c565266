// swift-tools-version: 6.1
// The libFuzzer targets: one per reader of outside bytes (docs/fuzzing.md). Build them only with
// -sanitize=fuzzer (Scripts/fuzz_campaign.sh does). The ARVis* folders under Sources are links to the
// main package's modules, so every module a target reaches is built, instrumented, in this package
// (and its `package` and, with -enable-testing, internal declarations are reachable).
import PackageDescription

let settings: [SwiftSetting] = [
    .swiftLanguageMode(.v6), .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"), .enableUpcomingFeature("InternalImportsByDefault"),
]

/// Each target, and the modules its harness reads with.
let targets: [(name: String, modules: [String])] = [
    ("FuzzSpecJSON", ["ARVisSpec", "FuzzSpecChecks"]),
    ("FuzzSpecYAML", ["ARVisSpec", "ARVisSpecYAML", "FuzzSpecChecks"]),
    ("FuzzLink", ["ARVisSpec", "ARVisSupport"]),
    ("FuzzPNG", ["ARVisGraphics", "FuzzPictureChecks"]),
    ("FuzzJPEG", ["ARVisGraphics", "FuzzPictureChecks"]),
    ("FuzzGLB", ["ARVisModel", "FuzzModelChecks"]),
    ("FuzzGLTF", ["ARVisModel", "FuzzModelChecks"]),
    ("FuzzUSDZ", ["ARVisModel", "FuzzModelChecks"]),
    ("FuzzUSDC", ["ARVisModel", "FuzzModelChecks"]),
    ("FuzzUSDA", ["ARVisModel", "FuzzModelChecks"]),
    ("FuzzMeshopt", ["ARVisModel"]),
    ("FuzzDraco", ["ARVisModel"]),
    ("FuzzGeoJSON", ["ARVisSpec", "ARVisPlanting"]),
    ("FuzzPosePacket", ["ARVisSpatial"]),
    ("FuzzRoomMessage", ["ARVisSpatial"]),
    ("FuzzHTTPBody", ["ARVisSupport", "ARVisWire"]),
    ("FuzzHTTPField", ["ARVisSupport", "ARVisWire"]),
]

let package = Package(
    name: "ARVisFuzz",
    dependencies: [.package(url: "https://github.com/jpsim/Yams", from: "6.0.0")],
    targets: [
        .target(name: "ARVisSupport", swiftSettings: settings),
        .target(name: "ARVisWire", dependencies: ["ARVisSupport"], swiftSettings: settings),
        .target(name: "ARVisSpec", dependencies: ["ARVisSupport"], swiftSettings: settings),
        .target(
            name: "ARVisSpecYAML",
            dependencies: ["ARVisSupport", "ARVisSpec", .product(name: "Yams", package: "Yams")],
            swiftSettings: settings),
        .target(name: "ARVisGraphics", dependencies: ["ARVisSupport"], swiftSettings: settings),
        .target(name: "ARVisSpatial", dependencies: ["ARVisSupport", "ARVisSpec"], swiftSettings: settings),
        .target(
            name: "ARVisModel", dependencies: ["ARVisSupport", "ARVisSpatial", "ARVisSpec", "ARVisGraphics"],
            swiftSettings: settings),
        .target(
            name: "ARVisPlanting", dependencies: ["ARVisSupport", "ARVisSpatial", "ARVisSpec", "ARVisGraphics"],
            swiftSettings: settings),
        .target(name: "FuzzDriver", swiftSettings: settings),
        .target(name: "FuzzModelChecks", dependencies: ["FuzzDriver", "ARVisModel"], swiftSettings: settings),
        .target(name: "FuzzPictureChecks", dependencies: ["FuzzDriver", "ARVisGraphics"], swiftSettings: settings),
        .target(name: "FuzzSpecChecks", dependencies: ["FuzzDriver", "ARVisSpec"], swiftSettings: settings),
    ]
        + targets.map { target in
            .executableTarget(
                name: target.name, dependencies: ["FuzzDriver"] + target.modules.map { .target(name: $0) },
                swiftSettings: settings + [.unsafeFlags(["-parse-as-library"])])
        }
)
