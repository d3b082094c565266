/// A tracked image and the widgets attached to it. The URL is the target's identity.
public struct ImageTrackingConfiguration: Sendable, Hashable {
    /// The image to track (a URL or a path relative to the spec); also the target's identity, so keep it unique.
    public var imageURL: String
    /// The printed image's width in metres (ARVis extension); iARVis assumes 0.2 m and estimates the scale.
    public var physicalWidth: Double?
    /// The widgets attached to the image; iARVis requires the key even when there are none.
    public var relationships: [Relationship]

    /// Creates an image target.
    public init(imageURL: String, physicalWidth: Double? = nil, relationships: [Relationship]) {
        self.imageURL = imageURL
        self.physicalWidth = physicalWidth
        self.relationships = relationships
    }
}

/// A tracked object (a scanned reference object) with its bounding box and widgets.
public struct ObjectTrackingConfiguration: Sendable, Hashable {
    /// The reference object to track (an `.arobject` file or a scan), by URL or relative path.
    public var objectURL: String
    /// The bounding box's size `[width, height, depth]` in metres.
    public var extent: Vec3?
    /// The bounding box's centre in the object's frame (default the origin).
    public var center: Vec3?
    /// The widgets attached to the object; `center0 … bottom2` anchor them to a face of its bounding box.
    public var relationships: [Relationship]

    /// Creates an object target.
    public init(objectURL: String, extent: Vec3? = nil, center: Vec3? = nil, relationships: [Relationship]) {
        self.objectURL = objectURL
        self.extent = extent
        self.center = center
        self.relationships = relationships
    }
}

/// A pose in the world (a persisted anchor) with widgets.
public struct WorldAnchor: Sendable, Hashable {
    /// The anchor's identifier, unique in the document; placements and annotations name it as `anchor`.
    public var id: String
    /// Position in metres in the project frame.
    public var position: Vec3
    /// Orientation as a unit quaternion `[x, y, z, w]`; no rotation when absent.
    public var rotation: Quaternion?
    /// The widgets attached to the anchor, if any.
    public var relationships: [Relationship]?

    /// Creates a world anchor.
    public init(id: String, position: Vec3, rotation: Quaternion? = nil, relationships: [Relationship]? = nil) {
        self.id = id
        self.position = position
        self.rotation = rotation
        self.relationships = relationships
    }
}

/// A geographic point (WGS84) with a heading, with widgets.
public struct GeoAnchor: Sendable, Hashable {
    /// The anchor's identifier, unique in the document; placements and annotations name it as `anchor`.
    public var id: String
    /// WGS84 latitude in degrees, from -90 to 90.
    public var latitude: Double
    /// WGS84 longitude in degrees, from -180 to 180.
    public var longitude: Double
    /// Metres above the WGS84 ellipsoid (default 0).
    public var altitude: Double?
    /// Degrees clockwise from true north that the anchor's -z axis faces (default 0).
    public var heading: Double?
    /// The widgets attached to the anchor, if any.
    public var relationships: [Relationship]?

    /// Creates a geo anchor.
    public init(
        id: String, latitude: Double, longitude: Double, altitude: Double? = nil, heading: Double? = nil,
        relationships: [Relationship]? = nil
    ) {
        self.id = id
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.heading = heading
        self.relationships = relationships
    }
}

extension ImageTrackingConfiguration: NodeCodable {
    static let shape = ObjectShape(
        "A tracked image and its widgets.",
        [
            .required("imageURL", URLCheck.schema, "The image to track; also the target's identity."),
            .optional(
                "physicalWidth", .number(exclusiveMinimum: 0, maximum: SpecLimits.largestPhysicalSize),
                "The printed width in metres (default 0.2, scale estimated)."),
            .required("relationships", .array(.ref(Relationship.self)), "The widgets attached to the image."),
        ])
    package static var schema: Schema { .object(shape) }

    package init?(from node: Node, in context: DecodingContext) {
        guard let object = ObjectReader(node, context, shape: Self.shape) else { return nil }
        let url = object.resourceURL("imageURL", context)
        let width = object.positive(
            "physicalWidth", "a physical width", maximum: SpecLimits.largestPhysicalSize, context)
        let relationships = object.required("relationships", as: [Relationship].self)
        guard let url, let relationships else { return nil }
        AnchorCheck.check(relationships, node: object.value("relationships")!, target: .image, context)
        self.init(imageURL: url, physicalWidth: width, relationships: relationships)
    }

    package var node: Node {
        .object([
            ("imageURL", .string(imageURL)), ("physicalWidth", physicalWidth?.node),
            ("relationships", relationships.node),
        ])
    }
}

extension ObjectTrackingConfiguration: NodeCodable {
    static let shape = ObjectShape(
        "A tracked object and its widgets.",
        [
            .required("objectURL", URLCheck.schema, "The reference object to track (.arobject or a scan)."),
            .optional("extent", .ref(Vec3.self), "Bounding-box size [width, height, depth] in metres."),
            .optional("center", .ref(Vec3.self), "Bounding-box centre in the object's frame (default [0, 0, 0])."),
            .required("relationships", .array(.ref(Relationship.self)), "The widgets attached to the object."),
        ])
    package static var schema: Schema { .object(shape) }

    package init?(from node: Node, in context: DecodingContext) {
        guard let object = ObjectReader(node, context, shape: Self.shape) else { return nil }
        let url = object.resourceURL("objectURL", context)
        let extent = object.optional("extent", as: Vec3.self)
        if let extent, min(extent.x, extent.y, extent.z) <= 0 {
            context.at("extent") {
                context.error(
                    .invalidValue, at: object.offset(of: "extent"),
                    "a bounding box needs a positive width, height and depth")
            }
        }
        let center = object.optional("center", as: Vec3.self)
        let relationships = object.required("relationships", as: [Relationship].self)
        guard let url, let relationships else { return nil }
        AnchorCheck.check(relationships, node: object.value("relationships")!, target: .object, context)
        self.init(objectURL: url, extent: extent, center: center, relationships: relationships)
    }

    package var node: Node {
        .object([
            ("objectURL", .string(objectURL)), ("extent", extent?.node), ("center", center?.node),
            ("relationships", relationships.node),
        ])
    }
}

extension WorldAnchor: NodeCodable {
    static let shape = ObjectShape(
        "A pose in the world and its widgets.",
        [
            .required("id", .string(minLength: 1), "The anchor's identifier, unique in the document."),
            .required("position", .ref(Vec3.self), "Position in metres in the project frame."),
            .optional(
                "rotation", .ref(Quaternion.self), "Orientation as a unit quaternion [x, y, z, w] (default none)."),
            .optional("relationships", .array(.ref(Relationship.self)), "The widgets attached to the anchor."),
        ])
    package static var schema: Schema { .object(shape) }

    package init?(from node: Node, in context: DecodingContext) {
        guard let object = ObjectReader(node, context, shape: Self.shape) else { return nil }
        let id = object.required("id", as: String.self)
        let position = object.required("position", as: Vec3.self)
        let rotation = object.optional("rotation", as: Quaternion.self)
        let relationships = object.optional("relationships", as: [Relationship].self)
        guard let id, let position else { return nil }
        if let relationships {
            AnchorCheck.check(relationships, node: object.value("relationships")!, target: .world, context)
        }
        self.init(id: id, position: position, rotation: rotation, relationships: relationships)
    }

    package var node: Node {
        .object([
            ("id", .string(id)), ("position", position.node), ("rotation", rotation?.node),
            ("relationships", relationships?.node),
        ])
    }
}

extension GeoAnchor: NodeCodable {
    static let shape = ObjectShape(
        "A geographic point and its widgets.",
        [
            .required("id", .string(minLength: 1), "The anchor's identifier, unique in the document."),
            .required("latitude", .number(minimum: -90, maximum: 90), "WGS84 latitude in degrees."),
            .required("longitude", .number(minimum: -180, maximum: 180), "WGS84 longitude in degrees."),
            .optional("altitude", .number(), "Metres above the WGS84 ellipsoid (default 0)."),
            .optional("heading", .number(minimum: 0, maximum: 360), "Degrees clockwise from true north (default 0)."),
            .optional("relationships", .array(.ref(Relationship.self)), "The widgets attached to the anchor."),
        ])
    package static var schema: Schema { .object(shape) }

    package init?(from node: Node, in context: DecodingContext) {
        guard let object = ObjectReader(node, context, shape: Self.shape) else { return nil }
        let id = object.required("id", as: String.self)
        let latitude = object.required("latitude", as: Double.self)
        let longitude = object.required("longitude", as: Double.self)
        let altitude = object.optional("altitude", as: Double.self)
        let heading = object.optional("heading", as: Double.self)
        let ranges: [(String, Double?, ClosedRange<Double>, String)] = [
            ("latitude", latitude, -90...90, "a latitude"), ("longitude", longitude, -180...180, "a longitude"),
            ("heading", heading, 0...360, "a heading"),
        ]
        let inRange = ranges.map { key, value, range, what in
            context.at(key) { NumberCheck.within(value, range, what, at: object.offset(of: key), context) }
        }
        let relationships = object.optional("relationships", as: [Relationship].self)
        guard let id, let latitude, let longitude, !inRange.contains(false) else { return nil }
        if let relationships {
            AnchorCheck.check(relationships, node: object.value("relationships")!, target: .geo, context)
        }
        self.init(
            id: id, latitude: latitude, longitude: longitude, altitude: altitude, heading: heading,
            relationships: relationships)
    }

    package var node: Node {
        .object([
            ("id", .string(id)), ("latitude", latitude.node), ("longitude", longitude.node),
            ("altitude", altitude?.node),
            ("heading", heading?.node), ("relationships", relationships?.node),
        ])
    }
}

/// Checks that each widget uses an anchor point its target allows, down through child widgets.
enum AnchorCheck {
    static func check(_ relationships: [Relationship], node: Node, target: TargetKind, _ context: DecodingContext) {
        guard let nodes = node.elements, nodes.count == relationships.count else { return }
        context.at("relationships") {
            for (index, relationship) in relationships.enumerated() {
                guard let widgetNode = nodes[index]["widgetConfiguration"] else { continue }
                context.at(index: index) {
                    context.at("widgetConfiguration") {
                        check(relationship.widgetConfiguration, node: widgetNode, target: target, context)
                    }
                }
            }
        }
    }

    private static func check(_ widget: WidgetConfiguration, node: Node, target: TargetKind, _ context: DecodingContext)
    {
        let anchor = widget.relativeAnchorPoint
        if !target.allows(anchor) {
            let message =
                anchor == .cover
                ? "\"cover\" sizes a widget to its target, which a child widget does not have"
                : "the anchor point \"\(anchor.rawValue)\" names a face of an object's bounding box; this widget is attached to \(target == .widget ? "a widget" : "an \(target.rawValue) target")"
            context.at("relativeAnchorPoint") {
                context.error(
                    .invalidValue, at: node["relativeAnchorPoint"]?.offset ?? node.offset, message,
                    hint: "use center, leading, trailing, top, bottom\(target == .widget ? "" : ", cover") or auto")
            }
        }
        guard let children = widget.additionalWidgetConfiguration,
            let childNodes = node["additionalWidgetConfiguration"]?.members,
            children.count == childNodes.count
        else { return }
        context.at("additionalWidgetConfiguration") {
            for (child, member) in zip(children, childNodes) {
                guard let childNode = member.value["widgetConfiguration"] else { continue }
                context.at(member.key) {
                    context.at("widgetConfiguration") {
                        check(child.widgetConfiguration, node: childNode, target: .widget, context)
                    }
                }
            }
        }
    }
}
