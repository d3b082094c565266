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
                return ",\"session\":[\(number(position.x, decimals: 4)),\(number(position.y, decimals: 4)),\(number(position.z, decimals: 4))]"
            }
            return "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(number(coordinate.longitude, decimals: 9)),"
                + "\(number(coordinate.latitude, decimals: 9))]},\"properties\":{\"species\":\(names[tree.species]),"
                + "\"spacing\":\(spacings[tree.species])\(placed ?? "")}}"
        }
        return "{\"type\":\"FeatureCollection\",\"features\":[\n" + features.joined(separator: ",\n") + "\n]}\n"
    }

    /// A number with at most `decimals` (≤ 9) decimals and no trailing zeros, formatted with integer
    /// arithmetic (String(format:) costs more than the geodesy for a large plan).
    static func number(_ value: Double, decimals: Int) -> String {
        let unit = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000][min(max(decimals, 0), 9)]
        let scaled = (abs(value) * Double(unit)).rounded()
        guard value.isFinite, scaled < 9e18 else { return value.isFinite ? String(format: "%.\(decimals)f", value) : "null" }
        let units = UInt64(scaled)
        var text = scaled == 0 || value > 0 ? "" : "-"
        text += String(units / UInt64(unit))
        var fraction = units % UInt64(unit)
        guard fraction > 0 else { return text }
        var digits = decimals
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        let fractionText = String(fraction)
        return text + "." + String(repeating: "0", count: digits - fractionText.count) + fractionText
    }
}
