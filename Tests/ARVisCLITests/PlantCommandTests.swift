import ARVisCLI
import ARVisTestSupport
import Foundation
import Testing

/// `arvis plant` and `arvis species` end to end.
struct PlantCommandTests {
    private var area: String { Corpus.packageRoot.appendingPathComponent("Examples/planting-area.geojson").path }
    private var zones: String { Corpus.packageRoot.appendingPathComponent("Examples/planting-exclusions.geojson").path }

    let scratch = ScratchFolder("plant")

    private func temporaryFile(_ name: String, _ contents: String? = nil) throws -> URL {
        try scratch.file(name, contents)
    }

    private func points(_ url: URL) throws -> [[String: Any]] {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
        return try #require(object?["features"] as? [[String: Any]])
    }

    @Test func plantsAMixWithZonesAndDrawsThePlan() async throws {
        let output = try temporaryFile("plan.geojson")
        let svg = output.deletingLastPathComponent().appendingPathComponent("plan.svg")
        let code = await arvis([
            "plant", "--area", area, "--species", "sobreiro:75%", "--species", "Pinus pinea:25%",
            "--exclude", zones, "--seed", "4", "-o", output.path, "--svg", svg.path,
        ])
        #expect(code == 0)
        let features = try points(output)
        #expect(features.count > 500)
        let species = Set(features.compactMap { ($0["properties"] as? [String: Any])?["species"] as? String })
        #expect(species == ["Quercus suber", "Pinus pinea"])
        #expect(try String(contentsOf: svg, encoding: .utf8).contains("Quercus suber"))
        // The same seed gives the same file.
        let again = output.deletingLastPathComponent().appendingPathComponent("again.geojson")
        #expect(
            await arvis([
                "plant", "--area", area, "--species", "sobreiro:75%", "--species", "Pinus pinea:25%",
                "--exclude", zones, "--seed", "4", "-o", again.path,
            ]) == 0)
        #expect(try Data(contentsOf: again) == Data(contentsOf: output))
    }

    @Test(arguments: ["poisson", "hex", "reforestar"])
    func everyLayoutHonoursACount(layout: String) async throws {
        let output = try temporaryFile("plan.geojson")
        #expect(
            await arvis([
                "plant", "--area", area, "--spacing", "4", "--layout", layout, "--count", "150", "-o", output.path,
            ]) == 0)
        #expect(try points(output).count == 150)
    }

    @Test func sharesAreWeightsOrPercentages() async throws {
        let output = try temporaryFile("plan.geojson")
        func share(of name: String) throws -> Double {
            let features = try points(output)
            let matching = features.filter { ($0["properties"] as? [String: Any])?["species"] as? String == name }
            return Double(matching.count) / Double(features.count)
        }
        #expect(
            await arvis([
                "plant", "--area", area, "--species", "pinheiro manso:40%", "--species", "azinheira", "-o", output.path,
            ]) == 0)
        #expect(abs(try share(of: "Pinus pinea") - 0.4) < 0.01)
        #expect(
            await arvis(["plant", "--area", area, "--species", "suber:1", "--species", "ilex:3", "-o", output.path])
                == 0)
        #expect(abs(try share(of: "Quercus ilex") - 0.75) < 0.01)
        for shares in [["suber:40%", "ilex:50%"], ["suber:40%", "ilex:2"], ["suber:100%", "ilex"], ["suber:120%"]] {
            #expect(
                await arvis(["plant", "--area", area] + shares.flatMap { ["--species", $0] } + ["-o", output.path])
                    == 2, "\(shares)")
        }
    }

    @Test func treesCanCarryARSessionPositions() async throws {
        let output = try temporaryFile("plan.geojson")
        // A session started at the first tree's place, facing east: that tree is at the origin.
        #expect(await arvis(["plant", "--area", area, "--spacing", "5", "--count", "20", "-o", output.path]) == 0)
        let first = try #require(
            ((try points(output)).first?["geometry"] as? [String: Any])?["coordinates"] as? [Double])
        #expect(
            await arvis([
                "plant", "--area", area, "--spacing", "5", "--count", "20",
                "--session", "\(first[1]),\(first[0]),90", "-o", output.path,
            ]) == 0)
        let sessions = try points(output).compactMap { ($0["properties"] as? [String: Any])?["session"] as? [Double] }
        #expect(sessions.count == 20)
        #expect(sessions[0].allSatisfy { abs($0) < 1e-3 })
        #expect(sessions.dropFirst().allSatisfy { hypot($0[0], $0[2]) >= 5 - 1e-3 && $0[1] == 0 })
        #expect(await arvis(["plant", "--area", area, "--session", "39.7,-8.8", "-o", output.path]) == 2)
    }

    @Test func writesAPNGPlan() async throws {
        let output = try temporaryFile("plan.geojson")
        let png = output.deletingLastPathComponent().appendingPathComponent("plan.png")
        #expect(await arvis(["plant", "--area", area, "--spacing", "6", "-o", output.path, "--svg", png.path]) == 0)
        #expect(try Array(Data(contentsOf: png).prefix(4)) == [137, 80, 78, 71])
    }

    @Test func badInputIsAClearError() async throws {
        let output = try temporaryFile("plan.geojson")
        // Unknown or ambiguous species, bad shares and spacings are usage errors (2).
        #expect(await arvis(["plant", "--area", area, "--species", "baobab", "-o", output.path]) == 2)
        #expect(await arvis(["plant", "--area", area, "--species", "Quercus", "-o", output.path]) == 2)
        #expect(await arvis(["plant", "--area", area, "--species", "sobreiro:-1", "-o", output.path]) == 2)
        #expect(await arvis(["plant", "--area", area, "--spacing", "0", "-o", output.path]) == 2)
        #expect(await arvis(["plant", "--area", "/nonexistent.geojson", "-o", output.path]) == 2)
        // Broken GeoJSON and files without polygons are input errors (1).
        let broken = try temporaryFile(
            "broken.geojson", #"{"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [1, 95]]]}"#)
        #expect(await arvis(["plant", "--area", broken.path, "-o", output.path]) == 1)
        let pointsOnly = try temporaryFile("points.geojson", #"{"type": "Point", "coordinates": [0, 0]}"#)
        #expect(await arvis(["plant", "--area", pointsOnly.path, "-o", output.path]) == 1)
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    @Test func speciesListsAndSearches() async {
        #expect(await arvis(["species"]) == 0)
        #expect(await arvis(["species", "sobreiro", "--details"]) == 0)
        #expect(await arvis(["species", "pinheiro", "--format", "json"]) == 0)
        #expect(await arvis(["species", "xyzzy"]) == 1)
    }
}
