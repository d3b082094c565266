import ARVisGraphics
import ARVisSpec
import Foundation

/// Writes plans as GeoJSON (RFC 7946): a FeatureCollection of Point features, one per line.
public enum GeoJSONWriter {
    /// The plan's trees as Point features with `species` and `spacing` (metres) properties, positions
    /// converted through `frame` and written to 9 decimals (about 0.1 mm, so distances read back within
    /// a millimetre of the rules). With a `session`, each tree also carries `session`: its [x, y, z] in
    /// metres in that AR session's frame.
    public static func write(_ plan: PlantingPlan, frame: GeoFrame, session: SessionAlignment? = nil) -> String {
        let names = plan.mix.entries.map { Node.string($0.name).compactText }
        let spacings = plan.mix.entries.map { number($0.spacing, decimals: 3) }
        let features = plan.trees.map { tree in
            let coordinate = frame.coordinate(tree.position)
            let placed = session.map { session in
                let position = session.sessionPosition(tree.position)
                return
                    ",\"session\":[\(number(position.x, decimals: 4)),\(number(position.y, decimals: 4)),\(number(position.z, decimals: 4))]"
            }
            return
                "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(number(coordinate.longitude, decimals: 9)),"
                + "\(number(coordinate.latitude, decimals: 9))]},\"properties\":{\"species\":\(names[tree.species]),"
                + "\"spacing\":\(spacings[tree.species])\(placed ?? "")}}"
        }
        return "{\"type\":\"FeatureCollection\",\"features\":[\n" + features.joined(separator: ",\n") + "\n]}\n"
    }

    /// A number with at most `decimals` (≤ 9) decimals and no trailing zeros (String(format:) costs
    /// more than the geodesy for a large plan, so it serves only numbers too large for that).
    static func number(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return "null" }
        return fixedDecimal(value, digits: decimals) ?? String(format: "%.\(decimals)f", value)
    }
}
