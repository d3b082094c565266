public import ARVisSpec
public import Foundation

/// What a GeoJSON file holds that planning uses: polygons (areas, exclusion zones) and points (trees).
public struct GeoFeatures: Sendable, Hashable {
    /// Every Polygon, and each polygon of every MultiPolygon, in file order.
    public var polygons: [GeoPolygon] = []
    /// Every Point, and each point of every MultiPoint, in file order.
    public var points: [GeoPoint] = []
}

/// A point of a GeoJSON file with the feature properties planning reads.
public struct GeoPoint: Sendable, Hashable {
    /// Where it is.
    public var coordinate: GeoCoordinate
    /// The feature's `species` property.
    public var species: String?
    /// The feature's `spacing` property, metres.
    public var spacing: Double?
}

/// Reads GeoJSON (RFC 7946) with located errors: `area.geojson:4:18: features[0].geometry.coordinates[0][2]: …`.
///
/// Accepts a FeatureCollection, a Feature or a bare geometry; Polygon, MultiPolygon, Point,
/// MultiPoint and GeometryCollection geometries (lines enclose nothing and are refused). Rings need
/// three distinct positions; the closing position is optional. A third (altitude) coordinate is read
/// and ignored.
public enum GeoJSONReader {
    /// Reads `data`, naming `file` in diagnostics.
    /// - Throws: ``SpecError`` carrying every problem found.
    public static func read(_ data: Data, file: String? = nil) throws(SpecError) -> GeoFeatures {
        let bytes = [UInt8](data)
        let parsed = bytes.withUnsafeBufferPointer { JSONParser.parse($0, maximumDepth: 64) }
        var walker = Walker()
        if let root = parsed.root { walker.document(root) }
        let pending = parsed.diagnostics.filter { $0.severity == .error } + walker.problems
        guard pending.isEmpty, parsed.root != nil else {
            let diagnostics = PendingDiagnostic.resolve(pending, in: SourceText(bytes), file: file)
            throw diagnostics.isEmpty
                ? SpecError(code: .syntax, message: "no GeoJSON value", location: nil)
                : SpecError(diagnostics: diagnostics)
        }
        return walker.features
    }

    /// Walks the tree, collecting features and problems.
    private struct Walker {
        var features = GeoFeatures()
        var problems: [PendingDiagnostic] = []

        mutating func fail(_ node: Node, _ path: String, _ message: String, hint: String? = nil) {
            problems.append(
                PendingDiagnostic(.error, .invalidValue, offset: node.offset, path: path, message: message, hint: hint))
        }

        mutating func document(_ root: Node) {
            guard let type = type(of: root, at: "") else { return }
            switch type {
            case "FeatureCollection":
                guard let list = root["features"]?.elements else {
                    return fail(root, "", "a FeatureCollection needs a \"features\" array")
                }
                for (index, feature) in list.enumerated() { self.feature(feature, at: "features[\(index)]") }
            case "Feature": feature(root, at: "")
            default: geometry(root, at: "", properties: nil)
            }
        }

        mutating func type(of node: Node, at path: String) -> String? {
            guard node.members != nil else {
                fail(node, path, "expected a GeoJSON object, found \(node.typeDescription)")
                return nil
            }
            guard let type = node["type"]?.string else {
                fail(node, path, "a GeoJSON object needs a \"type\" string")
                return nil
            }
            return type
        }

        mutating func feature(_ node: Node, at path: String) {
            guard let type = type(of: node, at: path) else { return }
            guard type == "Feature" else { return fail(node, join(path, "type"), "expected a Feature, found \(type)") }
            guard let geometry = node["geometry"], geometry.kind != .null else { return }
            self.geometry(geometry, at: join(path, "geometry"), properties: node["properties"])
        }

        mutating func geometry(_ node: Node, at path: String, properties: Node?) {
            guard let type = type(of: node, at: path) else { return }
            let coordinatesPath = join(path, "coordinates")
            if type == "GeometryCollection" {
                guard let list = node["geometries"]?.elements else {
                    return fail(node, path, "a GeometryCollection needs a \"geometries\" array")
                }
                for (index, member) in list.enumerated() {
                    geometry(member, at: join(path, "geometries") + "[\(index)]", properties: properties)
                }
                return
            }
            let known = ["Point", "MultiPoint", "Polygon", "MultiPolygon", "LineString", "MultiLineString"]
            guard known.contains(type) else {
                return fail(
                    node, join(path, "type"), "unknown geometry type \"\(type)\"",
                    hint: Suggestion.hint(for: type, among: known + ["GeometryCollection"], listing: true))
            }
            guard let coordinates = node["coordinates"] else {
                return fail(node, path, "a \(type) needs \"coordinates\"")
            }
            switch type {
            case "Point":
                if let point = position(coordinates, at: coordinatesPath) { addPoint(point, properties) }
            case "MultiPoint":
                for (index, member) in list(coordinates, at: coordinatesPath).enumerated() {
                    if let point = position(member, at: coordinatesPath + "[\(index)]") { addPoint(point, properties) }
                }
            case "Polygon":
                if let polygon = polygon(coordinates, at: coordinatesPath) { features.polygons.append(polygon) }
            case "MultiPolygon":
                for (index, member) in list(coordinates, at: coordinatesPath).enumerated() {
                    if let polygon = polygon(member, at: coordinatesPath + "[\(index)]") {
                        features.polygons.append(polygon)
                    }
                }
            default:
                fail(
                    node, join(path, "type"), "a \(type) encloses no area and is not a tree",
                    hint: "draw areas and zones as Polygons, trees as Points")
            }
        }

        mutating func addPoint(_ coordinate: GeoCoordinate, _ properties: Node?) {
            var point = GeoPoint(coordinate: coordinate)
            point.species = properties?["species"]?.string
            if let spacing = properties?["spacing"]?.number, spacing > 0 { point.spacing = spacing }
            features.points.append(point)
        }

        mutating func list(_ node: Node, at path: String) -> [Node] {
            guard let elements = node.elements else {
                fail(node, path, "expected an array, found \(node.typeDescription)")
                return []
            }
            return elements
        }

        mutating func polygon(_ node: Node, at path: String) -> GeoPolygon? {
            let rings = list(node, at: path).enumerated().map { ring($1, at: path + "[\($0)]") }
            guard let first = rings.first else {
                if node.elements != nil { fail(node, path, "a polygon needs at least its outer ring") }
                return nil
            }
            guard let outer = first, rings.allSatisfy({ $0 != nil }) else { return nil }
            return GeoPolygon(outer: outer, holes: rings.dropFirst().compactMap { $0 })
        }

        mutating func ring(_ node: Node, at path: String) -> [GeoCoordinate]? {
            let nodes = list(node, at: path)
            var ring: [GeoCoordinate] = []
            for (index, member) in nodes.enumerated() {
                guard let coordinate = position(member, at: path + "[\(index)]") else { return nil }
                ring.append(coordinate)
            }
            if ring.count > 1, ring.first == ring.last { ring.removeLast() }
            guard Set(ring).count >= 3 else {
                if node.elements != nil {
                    fail(node, path, "a ring needs at least three distinct positions, found \(Set(ring).count)")
                }
                return nil
            }
            return ring
        }

        mutating func position(_ node: Node, at path: String) -> GeoCoordinate? {
            guard let values = node.elements, values.count >= 2, values.count <= 3, let longitude = values[0].number,
                let latitude = values[1].number, values.count == 2 || values[2].number != nil
            else {
                fail(node, path, "expected a position [longitude, latitude], found \(describe(node))")
                return nil
            }
            guard abs(latitude) <= 90, abs(longitude) <= 180 else {
                let swapped = abs(longitude) <= 90 && abs(latitude) <= 180
                fail(
                    node, path,
                    "[\(longitude), \(latitude)] is not on Earth: longitude must be within ±180 and latitude within ±90",
                    hint: swapped ? "GeoJSON puts longitude first; are the two swapped?" : nil)
                return nil
            }
            return GeoCoordinate(latitude: latitude, longitude: longitude)
        }

        func describe(_ node: Node) -> String {
            guard let elements = node.elements else { return node.typeDescription }
            return "an array of \(elements.count) value\(elements.count == 1 ? "" : "s")"
        }

        func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }
    }
}
