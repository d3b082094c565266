public import ARVisSupport

/// What plans, areas and trees are written as: GeoJSON (RFC 7946), in a `.geojson` or `.json` file.
public enum GeoJSONFormat: String, FileFormat {
    /// GeoJSON.
    case geojson

    /// `.geojson`, or `.json`.
    public var fileExtensions: [String] { ["geojson", "json"] }

    /// `application/geo+json`.
    public var mediaTypes: [String] { ["application/geo+json"] }
}
