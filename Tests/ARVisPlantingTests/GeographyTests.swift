import ARVisPlanting
import ARVisSpatial
import ARVisSpec
import ARVisTestSupport
import Foundation
import Testing

struct GeoFrameTests {
    let leiria = GeoCoordinate(latitude: 39.7436, longitude: -8.8071)

    /// The length of the meridian between two latitudes on WGS84, by Simpson's rule (independent of
    /// the ECEF code under test).
    static func meridianArc(from first: Double, to second: Double) -> Double {
        let a = 6_378_137.0
        let f = 1 / 298.257_223_563
        let e2 = f * (2 - f)
        let steps = 2_000
        let h = (second - first) * .pi / 180 / Double(steps)
        func radius(_ phi: Double) -> Double { a * (1 - e2) / pow(1 - e2 * sin(phi) * sin(phi), 1.5) }
        var sum = radius(first * .pi / 180) + radius(second * .pi / 180)
        for step in 1..<steps { sum += radius(first * .pi / 180 + Double(step) * h) * (step % 2 == 1 ? 4 : 2) }
        return sum * h / 3
    }

    @Test func roundTripsWithinAMicrometreAcrossTenKilometres() {
        let frame = GeoFrame(origin: leiria)
        var generator = SeededGenerator(seed: 12)
        for _ in 0..<500 {
            let position = SIMD2(
                Double.random(in: -10_000...10_000, using: &generator),
                Double.random(in: -10_000...10_000, using: &generator))
            let back = frame.local(frame.coordinate(position))
            #expect(((back - position) * (back - position)).sum().squareRoot() < 1e-6)
        }
    }

    @Test func distancesMatchTheGroundWithinACentimetreAtTenKilometres() {
        // 10 km due north: the frame's north distance against the meridian arc.
        let frame = GeoFrame(origin: leiria)
        var latitude = leiria.latitude + 10_000 / 111_000
        for _ in 0..<30 { latitude += (10_000 - Self.meridianArc(from: leiria.latitude, to: latitude)) / 111_000 }
        let north = frame.local(GeoCoordinate(latitude: latitude, longitude: leiria.longitude))
        #expect(abs(north.y - 10_000) < 0.01, "\(north.y)")
        #expect(abs(north.x) < 1e-6)
        // Two trees 3 m apart 10 km out keep their 3 m to well under a centimetre.
        let far = frame.coordinate(SIMD2(7_000, 7_000))
        let near = frame.coordinate(SIMD2(7_003, 7_000))
        #expect(abs(GeoFrame(origin: far).distance(far, near) - 3) < 0.001)
    }

    @Test func framesAroundPolygonsCentreOnTheirBounds() {
        let polygon = GeoPolygon(outer: [
            GeoCoordinate(latitude: 39, longitude: -9), GeoCoordinate(latitude: 40, longitude: -9),
            GeoCoordinate(latitude: 40, longitude: -8),
        ])
        #expect(GeoFrame(around: [polygon]).origin == GeoCoordinate(latitude: 39.5, longitude: -8.5))
        // Across the antimeridian: the centre is at 180°, not at 0°.
        let fiji = GeoPolygon(outer: [
            GeoCoordinate(latitude: -17, longitude: 179.9), GeoCoordinate(latitude: -17, longitude: -179.9),
            GeoCoordinate(latitude: -16.9, longitude: -179.9),
        ])
        let frame = GeoFrame(around: [fiji])
        #expect(abs(abs(frame.origin.longitude) - 180) < 1e-9)
        let area = frame.area(fiji)
        #expect(area.squareMetres > 1e7 && area.squareMetres < 2e8)
    }

    @Test func polygonsOnTheMapAnswerContainmentAndArea() {
        let frame = GeoFrame(origin: leiria)
        let square = GeoPolygon(
            outer: [SIMD2(-50.0, -50), SIMD2(50, -50), SIMD2(50, 50), SIMD2(-50, 50)].map(frame.coordinate),
            holes: [[SIMD2(-10.0, -10), SIMD2(10, -10), SIMD2(10, 10), SIMD2(-10, 10)].map(frame.coordinate)])
        #expect(abs(square.squareMetres - 9_600) < 0.01)
        #expect(square.contains(frame.coordinate(SIMD2(30, 30))))
        #expect(!square.contains(frame.coordinate(SIMD2(0, 0))))
        #expect(!square.contains(frame.coordinate(SIMD2(60, 0))))
    }

    @Test func theProjectLocationRuleIsTenMetresByDefault() {
        let frame = GeoFrame(origin: leiria)
        let project = ProjectLocation(leiria)
        guard case .within(let near) = project.check(frame.coordinate(SIMD2(6, 7.9))) else {
            Issue.record("9.9 m should be within")
            return
        }
        #expect(abs(near - 9.92) < 0.01)
        guard case .tooFar(let far) = project.check(frame.coordinate(SIMD2(0, 10.1))) else {
            Issue.record("10.1 m should be too far")
            return
        }
        #expect(abs(far - 10.1) < 1e-6)
        #expect(
            ProjectLocation(leiria, radius: 25).check(frame.coordinate(SIMD2(0, 20)))
                == .within(ProjectLocation(leiria).check(frame.coordinate(SIMD2(0, 20))).distance))
    }

    @Test func sessionAlignmentFollowsARKitAxes() {
        // Heading 0: −z is north, x is east.
        let north = SessionAlignment(origin: SIMD2(10, 20), heading: 0)
        #expect(north.sessionPosition(SIMD2(10, 25)) == Vec3(0, 0, -5))
        #expect(north.sessionPosition(SIMD2(13, 20)) == Vec3(3, 0, 0))
        // Heading 90: −z is east, x is south.
        let east = SessionAlignment(origin: .zero, heading: 90, groundHeight: -1.4)
        let ahead = east.sessionPosition(SIMD2(5, 0))
        #expect(abs(ahead.x) < 1e-12 && ahead.y == -1.4 && abs(ahead.z + 5) < 1e-12)
        var generator = SeededGenerator(seed: 2)
        for _ in 0..<100 {
            let alignment = SessionAlignment(
                origin: SIMD2(.random(in: -50...50, using: &generator), .random(in: -50...50, using: &generator)),
                heading: .random(in: 0..<360, using: &generator))
            let point = SIMD2(
                Double.random(in: -100...100, using: &generator), Double.random(in: -100...100, using: &generator))
            let back = alignment.planPosition(alignment.sessionPosition(point))
            #expect(((back - point) * (back - point)).sum() < 1e-18)
            // Distances are kept.
            let session = alignment.sessionPosition(point) - alignment.sessionPosition(alignment.origin)
            #expect(
                abs(session.length - ((point - alignment.origin) * (point - alignment.origin)).sum().squareRoot())
                    < 1e-9)
        }
        // Through geography: a session started at a coordinate.
        let frame = GeoFrame(origin: leiria)
        let spot = frame.coordinate(SIMD2(30, -12))
        let session = SessionAlignment(origin: spot, heading: 0, in: frame)
        #expect((session.sessionPosition(SIMD2(30, -12)) - Vec3(0, 0, 0)).length < 1e-6)
    }
}

extension ProjectLocation.Check {
    var distance: Double {
        switch self {
        case .within(let distance), .tooFar(let distance): distance
        }
    }
}

struct GeoJSONTests {
    private func read(_ text: String) throws(SpecError) -> GeoFeatures {
        try GeoJSONReader.read(Data(text.utf8), file: "area.geojson")
    }

    private func error(_ text: String) -> SpecError? {
        do {
            _ = try read(text)
            return nil
        } catch { return error }
    }

    @Test func readsEveryShapeOfFile() throws {
        let collection = try read(
            """
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "properties": {"name": "parcel"}, "geometry": {"type": "Polygon", "coordinates": [
                [[-8.8, 39.7], [-8.79, 39.7], [-8.79, 39.71], [-8.8, 39.71], [-8.8, 39.7]],
                [[-8.797, 39.703], [-8.795, 39.703], [-8.795, 39.705]]]}},
              {"type": "Feature", "properties": {"species": "Quercus suber", "spacing": 8}, "geometry": {"type": "Point", "coordinates": [-8.796, 39.708, 120]}},
              {"type": "Feature", "properties": null, "geometry": null},
              {"type": "Feature", "geometry": {"type": "GeometryCollection", "geometries": [
                {"type": "MultiPolygon", "coordinates": [[[[0, 0], [1, 0], [1, 1]]], [[[2, 2], [3, 2], [3, 3]]]]},
                {"type": "MultiPoint", "coordinates": [[5, 5], [6, 6]]}]}}
            ]}
            """)
        #expect(collection.polygons.count == 3)
        #expect(collection.polygons[0].outer.count == 4, "the closing position is dropped")
        #expect(collection.polygons[0].holes.count == 1 && collection.polygons[0].holes[0].count == 3)
        #expect(collection.points.count == 3)
        #expect(collection.points[0].species == "Quercus suber" && collection.points[0].spacing == 8)
        #expect(collection.points[0].coordinate == GeoCoordinate(latitude: 39.708, longitude: -8.796))
        #expect(try read(#"{"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [0, 1]]]}"#).polygons.count == 1)
        #expect(
            try read(#"{"type": "Feature", "geometry": {"type": "Point", "coordinates": [1, 2]}}"#).points.count == 1)
    }

    @Test func problemsAreLocatedAndExplained() throws {
        let swapped = try #require(
            error(
                """
                {"type": "Polygon", "coordinates": [[[0, 0], [1, 0],
                  [39.7, -120.5]]]}
                """))
        #expect(swapped.location == SourceLocation(file: "area.geojson", line: 2, column: 3))
        #expect(swapped.path == "coordinates[0][2]")
        #expect(swapped.diagnostics[0].hint?.contains("swapped") == true)

        let typo = try #require(error(#"{"type": "Polgon", "coordinates": []}"#))
        #expect(typo.diagnostics[0].hint == "did you mean 'Polygon'?")
        #expect(
            try #require(error(#"{"type": "LineString", "coordinates": [[0, 0], [1, 1]]}"#)).message.contains(
                "encloses no area"))
        #expect(
            try #require(error(#"{"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [0, 0]]]}"#)).message.contains(
                "three distinct"))
        #expect(
            try #require(error(#"{"type": "Point", "coordinates": ["a", 1]}"#)).message.contains(
                "[longitude, latitude]"))
        #expect(try #require(error(#"{"type": "FeatureCollection"}"#)).message.contains("features"))
        #expect(try #require(error(#"[1, 2]"#)).message.contains("GeoJSON object"))
        // Two problems in one file are both reported.
        let two = try #require(error(#"{"type": "MultiPoint", "coordinates": [[200, 0], [0, 0], [0]]}"#))
        #expect(two.diagnostics.count == 2)
    }

    @Test func hostileInputIsAnErrorNotACrash() {
        #expect(error("") != nil)
        #expect(error(#"{"type": "Polygon", "coordinates": [[[0, 0], [1, 0]"#) != nil, "truncated")
        #expect((try? GeoJSONReader.read(Data([0x7B, 0xFF, 0xFE, 0x7D]))) == nil, "not UTF-8")
        #expect(error(String(repeating: "[", count: 100_000)) != nil, "deeply nested")
        let huge =
            "{\"type\": \"MultiPoint\", \"coordinates\": ["
            + Array(repeating: "[1.5, 2.5]", count: 200_000).joined(separator: ",") + "]}"
        #expect((try? read(huge))?.points.count == 200_000)
    }

    @Test func plansRoundTripThroughGeoJSON() throws {
        let origin = GeoCoordinate(latitude: 38.7, longitude: -9.1)
        let frame = GeoFrame(origin: origin)
        let site = PlantingSite(Area(outer: [SIMD2(-50, -50), SIMD2(50, -50), SIMD2(50, 50), SIMD2(-50, 50)]))
        let plan = AreaPlanner.plan(
            site,
            mix: SpeciesMix([.init(name: "Quercus \"suber\"", spacing: 5), .init(name: "Pinus pinea", spacing: 6)]),
            layout: .poisson, seed: 3)
        let text = GeoJSONWriter.write(plan, frame: frame)
        let read = try GeoJSONReader.read(Data(text.utf8))
        #expect(read.points.count == plan.trees.count)
        for (point, tree) in zip(read.points, plan.trees) {
            let position = frame.local(point.coordinate)
            #expect(((position - tree.position) * (position - tree.position)).sum().squareRoot() < 0.002)
            #expect(point.species == plan.mix.entries[tree.species].name)
            #expect(point.spacing == plan.mix.entries[tree.species].spacing)
        }
    }
}

struct SpeciesCatalogTests {
    let catalog = SpeciesCatalog.standard

    @Test func everyEntryIsComplete() {
        #expect(catalog.species.count >= 16)
        #expect(Set(catalog.species.map(\.latinName)).count == catalog.species.count)
        for species in catalog.species {
            #expect(species.latinName.split(separator: " ").count == 2, "\(species.latinName)")
            #expect(!species.englishNames.isEmpty && !species.portugueseNames.isEmpty)
            #expect(species.spacing > 0 && species.spacing <= 10)
            #expect(
                species.minimumHeight > 0 && species.minimumHeight < species.maximumHeight
                    && species.maximumHeight <= 70)
            #expect(species.description.count > 30 && species.source.count > 30)
        }
        // ReforestAR's species are all there.
        for name in [
            "Alnus glutinosa", "Arbutus unedo", "Corylus avellana", "Cupressus sempervirens", "Eucalyptus globulus",
            "Fraxinus angustifolia",
            "Olea europaea", "Pinus pinaster", "Pinus pinea", "Pinus sylvestris", "Pyrus bourgaeana", "Quercus ilex",
            "Quercus pyrenaica",
            "Quercus suber", "Salix alba", "Salix salviifolia", "Tamarix gallica",
        ] {
            #expect(catalog.species(named: name)?.latinName == name)
        }
    }

    @Test func searchIgnoresCaseAndAccentsAndForgivesTypos() {
        #expect(catalog.search("sobreiro").first?.species.latinName == "Quercus suber")
        #expect(catalog.search("SOBREIRO").first?.quality == .exact)
        #expect(catalog.species(named: "lodao bastardo")?.latinName == "Celtis australis")
        #expect(catalog.species(named: "Lódão-Bastardo")?.latinName == "Celtis australis")
        #expect(catalog.species(named: "pinheiro manso")?.latinName == "Pinus pinea")
        #expect(catalog.search("cork").first.map { ($0.species.latinName, $0.quality) }! == ("Quercus suber", .prefix))
        #expect(
            catalog.search("gum").first.map { ($0.species.latinName, $0.quality) }! == (
                "Eucalyptus globulus", .wordPrefix
            ))
        #expect(
            catalog.search("Qercus suber").first.map { ($0.species.latinName, $0.quality) }! == (
                "Quercus suber", .fuzzy
            ))
        #expect(catalog.search("azinhiera").first?.species.latinName == "Quercus ilex")
        let oaks = catalog.search("quer").filter { $0.quality == .prefix }
        #expect(oaks.count == 5 && oaks.allSatisfy { $0.species.latinName.hasPrefix("Quercus") })
        #expect(catalog.species(named: "Quercus") == nil, "ambiguous")
        #expect(catalog.species(named: "suber")?.latinName == "Quercus suber", "the only word starting so")
        #expect(catalog.species(named: "pinheiro") == nil, "bravo, manso or silvestre")
        #expect(catalog.search("xyzzy").isEmpty)
        #expect(catalog.search("").count == catalog.species.count)
    }
}
