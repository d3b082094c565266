import ARVisPipeline
import ARVisPlanting
import ARVisSpatial
import ARVisSpec
import ARVisSupport
import ARVisTestSupport
import Foundation
import Testing

struct TexturedSceneTests {
    /// A 2×1 PNG as a data URL: a target picture the loader reads without disk or network.
    static let picture =
        "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAIAAAB7QOjdAAAAEElEQVR4nGP4z8DAwMDAAAAHAwEAtBQmDwAAAABJRU5ErkJggg=="

    @Test func oneWalkGivesTheGraphTheWidgetRendersAndTheTargetPictures() async throws {
        let environment = Environment {
            ImageTrackingConfiguration(Self.picture) {
                WidgetConfiguration(.top) { .text("Poster") }
                WidgetConfiguration(.auto) { .text("Detail") }
            }
        }
        let scene = await TexturedScene(environment, loader: SafeResourceLoader())
        #expect(scene.failures.isEmpty)
        let target = try #require(scene.graph.nodes.first { $0.id == "image1" })
        // The picture's 2:1 aspect sizes the target (default width 0.2 m).
        #expect(abs((target.size?.x ?? 0) / (target.size?.y ?? 1) - 2) < 1e-9)
        let textures = try scene.textures(scale: 0.5)
        #expect(Set(textures.keys) == ["image1", "image1-widget1", "image1-widget2"])
        #expect(textures["image1"]?.prefix(4) == [0x89, 0x50, 0x4E, 0x47])
        let widgetNodes = scene.graph.nodes.filter { $0.kind == .widget }.map(\.id)
        #expect(Set(widgetNodes).isSubset(of: textures.keys))
    }

    @Test func withoutALoaderNothingIsRead() async throws {
        let environment = Environment {
            ImageTrackingConfiguration("/etc/passwd") { WidgetConfiguration(.top) { .text("x") } }
        }
        let scene = await TexturedScene(environment)
        #expect(scene.resources.isEmpty && scene.failures.isEmpty)
        #expect(try scene.textures(scale: 0.25)["image1"] == nil)
    }
}

struct AreaPlantingTests {
    static func features(_ json: String) throws -> GeoFeatures {
        try GeoJSONReader.read(Data(json.utf8), file: "area.geojson")
    }

    static let square =
        #"{"type": "Polygon", "coordinates": [[[-8.8, 39.7], [-8.799, 39.7], [-8.799, 39.701], [-8.8, 39.701], [-8.8, 39.7]]]}"#

    @Test func plansAnAreaWithAZoneAndAStandingTree() throws {
        let zone = try Self.features(
            #"{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {}, "geometry": {"type": "Polygon", "coordinates": [[[-8.8, 39.7], [-8.7995, 39.7], [-8.7995, 39.701], [-8.8, 39.701], [-8.8, 39.7]]]}}, {"type": "Feature", "properties": {"spacing": 10}, "geometry": {"type": "Point", "coordinates": [-8.7993, 39.7005]}}]}"#
        )
        let planting = try AreaPlanting(
            area: Self.features(Self.square), named: "area.geojson", exclusions: [(zone, "zone.geojson")],
            mix: .uniform(spacing: 4), layout: .poisson)
        #expect(planting.plan.trees.count > 100)
        #expect(planting.plan.violations().isEmpty)
        let summary = planting.plan.summary
        let decoded = try JSONDecoder().decode(PlanSummary.self, from: JSONEncoder().encode(summary))
        #expect(decoded == summary)
    }

    @Test func refusalsArePlantingErrors() throws {
        let area = try Self.features(Self.square)
        #expect(throws: PlantingError.self) {
            try AreaPlanting(area: area, named: "a", mix: .uniform(spacing: 0.005), layout: .poisson)
        }
        let nothing = #expect(throws: PlantingError.self) {
            try AreaPlanting(
                area: area, named: "a", exclusions: [(area, "all.geojson")], mix: .uniform(spacing: 3), layout: .poisson
            )
        }
        #expect(nothing?.code == .nothingPlanted)
        let points = try Self.features(#"{"type": "Point", "coordinates": [-8.8, 39.7]}"#)
        #expect(throws: PlantingError.self) {
            try AreaPlanting(area: points, named: "a", mix: .uniform(spacing: 3), layout: .poisson)
        }
    }
}
