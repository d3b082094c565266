/// A whole AR environment: targets with widgets, placed 3D models and annotations.
///
/// iARVis's `VisualizationConfiguration` is an environment with only `imageTrackingConfigurations`;
/// ARVis adds object targets, world and geo anchors, placements, annotations and a version.
public struct Environment: Sendable, Hashable {
    /// The schema the document names for editors (`$schema`), kept as written.
    public var schemaReference: String?
    /// The ARVis spec version the document is written for, such as "1.0".
    public var version: String?
    /// Tracked images, each with the widgets attached to it (iARVis's only key).
    public var imageTrackingConfigurations: [ImageTrackingConfiguration]?
    /// Tracked reference objects with the widgets attached to them (ARVis extension).
    public var objectTrackingConfigurations: [ObjectTrackingConfiguration]?
    /// Poses in the world that carry widgets; placements and annotations refer to them by id.
    public var worldAnchors: [WorldAnchor]?
    /// Geographic points (WGS84) that carry widgets; placements and annotations refer to them by id.
    public var geoAnchors: [GeoAnchor]?
    /// 3D models placed at poses, in the project frame or relative to an anchor.
    public var placements: [Placement]?
    /// Markers people put into the scene, such as a remote expert's notes or pins.
    public var annotations: [SceneAnnotation]?

    /// The spec versions this reader understands (major version 1).
    public static let supportedMajorVersion = 1

    /// Creates an environment.
    public init(imageTrackingConfigurations: [ImageTrackingConfiguration]? = nil) {
        self.imageTrackingConfigurations = imageTrackingConfigurations
    }

    /// The keys that mark a document as an environment.
    static let kindKeys: Set<String> = [
        "imageTrackingConfigurations", "objectTrackingConfigurations", "worldAnchors", "geoAnchors", "placements",
        "annotations",
    ]
}

/// A 3D model placed at a pose, optionally relative to a world or geo anchor.
public struct Placement: Sendable, Hashable {
    /// The placement's identifier, unique among the document's ids.
    public var id: String?
    /// The model file (USDZ, glTF, GLB, OBJ …).
    public var model: String
    /// The id of the world or geo anchor the pose is relative to; without it, the project frame.
    public var anchor: String?
    /// Position in metres, in the anchor's frame or, without an anchor, the project frame.
    public var position: Vec3
    /// Orientation as a unit quaternion `[x, y, z, w]`; no rotation when absent.
    public var rotation: Quaternion?
    /// Uniform scale factor (default 1).
    public var scale: Double?
    /// Free-form properties (species, height, note …).
    public var properties: DataTable?

    /// Creates a placement.
    public init(
        model: String, position: Vec3, id: String? = nil, anchor: String? = nil, rotation: Quaternion? = nil,
        scale: Double? = nil
    ) {
        self.model = model
        self.position = position
        self.id = id
        self.anchor = anchor
        self.rotation = rotation
        self.scale = scale
    }
}

/// A marker a person put into the scene (a remote expert's note, a pin).
public struct SceneAnnotation: Sendable, Hashable {
    /// The annotation's identifier, unique among the document's ids.
    public var id: String?
    /// The id of the world or geo anchor the position is relative to; without it, the project frame.
    public var anchor: String?
    /// Where the marker sits, in metres.
    public var position: Vec3
    /// The note shown with the marker.
    public var text: String?
    /// The marker's colour.
    public var color: Color?
    /// Who made the annotation, as free text.
    public var author: String?
    /// When it was made, as an ISO 8601 date-time.
    public var createdAt: String?

    /// Creates an annotation.
    public init(position: Vec3, text: String? = nil, id: String? = nil, anchor: String? = nil) {
        self.position = position
        self.text = text
        self.id = id
        self.anchor = anchor
    }
}

extension Environment: NodeCodable {
    static let shape = ObjectShape(
        "An AR environment: targets with widgets, placed models and annotations.",
        requiresOneOf: kindKeys.sorted(),
        [
            .optional("$schema", .string(), "The JSON Schema this document follows (for editors)."),
            .optional("version", .string(pattern: "^1(\\.[0-9]+)?$"), "The ARVis spec version, such as \"1.0\"."),
            .optional(
                "imageTrackingConfigurations", .array(.ref(ImageTrackingConfiguration.self)),
                "Tracked images and their widgets."),
            .optional(
                "objectTrackingConfigurations", .array(.ref(ObjectTrackingConfiguration.self)),
                "Tracked objects and their widgets."),
            .optional("worldAnchors", .array(.ref(WorldAnchor.self)), "Poses in the world and their widgets."),
            .optional("geoAnchors", .array(.ref(GeoAnchor.self)), "Geographic points and their widgets."),
            .optional("placements", .array(.ref(Placement.self)), "3D models at poses."),
            .optional("annotations", .array(.ref(SceneAnnotation.self)), "Markers in the scene."),
        ])
    package static var schema: Schema { .object(shape) }

    package init?(from node: Node, in context: DecodingContext) {
        guard let object = ObjectReader(node, context, shape: Self.shape, expected: "an environment object") else {
            return nil
        }
        schemaReference = object.optional("$schema")
        version = object.optional("version")
        if let version {
            context.at("version") { Self.checkVersion(version, at: object.offset(of: "version"), context) }
        }
        imageTrackingConfigurations = object.optional("imageTrackingConfigurations")
        objectTrackingConfigurations = object.optional("objectTrackingConfigurations")
        worldAnchors = object.optional("worldAnchors")
        geoAnchors = object.optional("geoAnchors")
        placements = object.optional("placements")
        annotations = object.optional("annotations")
        EnvironmentCheck(environment: self, object: object, context: context).run()
    }

    private static func checkVersion(_ version: String, at offset: Int, _ context: DecodingContext) {
        let parts = version.split(separator: ".", omittingEmptySubsequences: false)
        guard let major = parts.first.flatMap({ Int($0) }), parts.count <= 2,
            parts.dropFirst().allSatisfy({ Int($0) != nil })
        else {
            context.error(.invalidValue, at: offset, "\"\(version)\" is not a version", hint: "write \"1.0\"")
            return
        }
        if major != supportedMajorVersion {
            context.error(
                .invalidValue, at: offset,
                "this reader understands spec version \(supportedMajorVersion).x, not \(version)",
                hint: "update ARVis to read this document")
        }
    }

    package var node: Node {
        .object([
            ("$schema", schemaReference?.node), ("version", version?.node),
            ("imageTrackingConfigurations", imageTrackingConfigurations?.node),
            ("objectTrackingConfigurations", objectTrackingConfigurations?.node),
            ("worldAnchors", worldAnchors?.node), ("geoAnchors", geoAnchors?.node),
            ("placements", placements?.node), ("annotations", annotations?.node),
        ])
    }
}

extension Placement: NodeCodable {
    static let shape = ObjectShape(
        "A 3D model at a pose.",
        [
            .optional("id", .string(minLength: 1), "The placement's identifier, unique in the document."),
            .required("model", URLCheck.schema, "The model file (USDZ, glTF, GLB …)."),
            .optional("anchor", .string(), "The id of the world or geo anchor the pose is relative to."),
            .required("position", .ref(Vec3.self), "Position in metres."),
            .optional("rotation", .ref(Quaternion.self), "Orientation as a unit quaternion [x, y, z, w]."),
            .optional(
                "scale", .number(exclusiveMinimum: 0, maximum: SpecLimits.largestPhysicalSize),
                "Uniform scale factor (default 1)."),
            .optional("properties", .map(.scalar), "Free-form properties such as species or height."),
        ])
    package static var schema: Schema { .object(shape) }

    package init?(from node: Node, in context: DecodingContext) {
        guard let object = ObjectReader(node, context, shape: Self.shape) else { return nil }
        let id = object.optional("id", as: String.self)
        let model = object.resourceURL("model", context)
        let anchor = object.optional("anchor", as: String.self)
        let position = object.required("position", as: Vec3.self)
        let rotation = object.optional("rotation", as: Quaternion.self)
        let scale = object.positive("scale", "a scale", maximum: SpecLimits.largestPhysicalSize, context)
        let properties = object.value("properties").flatMap { value in
            context.at("properties") { () -> DataTable? in
                guard value.members?.allSatisfy(\.value.isScalar) != false else {
                    context.typeMismatch(value, expected: "an object of scalar properties")
                    return nil
                }
                return DataTable(from: value, in: context)
            }
        }
        guard let model, let position else { return nil }
        self.init(model: model, position: position, id: id, anchor: anchor, rotation: rotation, scale: scale)
        self.properties = properties
    }

    package var node: Node {
        .object([
            ("id", id?.node), ("model", .string(model)), ("anchor", anchor?.node), ("position", position.node),
            ("rotation", rotation?.node), ("scale", scale?.node),
            (
                "properties",
                properties.map { table in
                    Node(
                        .object(
                            table.columns.map { Node.Member(key: $0.name, value: $0.values.first?.node ?? Node(.null)) }
                        ))
                }
            ),
        ])
    }
}

extension SceneAnnotation: NodeCodable {
    static let shape = ObjectShape(
        "A marker in the scene.",
        [
            .optional("id", .string(minLength: 1), "The annotation's identifier, unique in the document."),
            .optional("anchor", .string(), "The id of the world or geo anchor the position is relative to."),
            .required("position", .ref(Vec3.self), "Position in metres."),
            .optional("text", .string(), "The note."),
            .optional("color", .ref(Color.self), "The marker's colour."),
            .optional("author", .string(), "Who made it."),
            .optional("createdAt", .string(format: "date-time"), "When it was made (ISO 8601)."),
        ])
    package static var schema: Schema { .object(shape) }

    package init?(from node: Node, in context: DecodingContext) {
        guard let object = ObjectReader(node, context, shape: Self.shape) else { return nil }
        let id = object.optional("id", as: String.self)
        let anchor = object.optional("anchor", as: String.self)
        let position = object.required("position", as: Vec3.self)
        let text = object.optional("text", as: String.self)
        let color = object.optional("color", as: Color.self)
        let author = object.optional("author", as: String.self)
        let createdAt = object.optional("createdAt", as: String.self)
        if let createdAt, DatePattern.builtIn.prefix(4).allSatisfy({ $0.parse(createdAt) == nil }) {
            context.at("createdAt") {
                context.error(
                    .invalidValue, at: object.offset(of: "createdAt"), "\"\(createdAt)\" is not an ISO 8601 date-time",
                    hint: "write it like 2026-11-21T14:05:00Z")
            }
        }
        guard let position else { return nil }
        self.init(position: position, text: text, id: id, anchor: anchor)
        self.color = color
        self.author = author
        self.createdAt = createdAt
    }

    package var node: Node {
        .object([
            ("id", id?.node), ("anchor", anchor?.node), ("position", position.node), ("text", text?.node),
            ("color", color?.node), ("author", author?.node), ("createdAt", createdAt?.node),
        ])
    }
}
