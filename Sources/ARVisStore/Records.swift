public import Foundation

/// An account, without its password hash.
public struct Account: Sendable, Hashable {
    /// Stable identifier.
    public var id: String
    /// The name as the person typed it (unique without regard to case).
    public var username: String
    /// When it was created.
    public var createdAt: Date
}

/// Who may see a project's specs without being a member.
public enum Visibility: String, Sendable, Hashable, CaseIterable {
    /// Members only.
    case `private`
    /// Anyone with the URL.
    case unlisted
    /// Anyone; listed.
    case `public`
}

/// A member's role, ordered by what it allows.
public enum Role: String, Sendable, Hashable, CaseIterable, Comparable {
    /// Reads everything.
    case viewer
    /// Also writes specs, trees, anchors.
    case editor
    /// Also changes members, visibility, and trashes the project.
    case owner

    /// Whether `self` allows at least what `other` allows.
    public static func < (lhs: Role, rhs: Role) -> Bool {
        allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
    }
}

/// A project.
public struct Project: Sendable, Hashable {
    /// Stable identifier.
    public var id: String
    /// Unique on the server; part of every URL.
    public var slug: String
    /// Display name.
    public var name: String
    /// Who may read it.
    public var visibility: Visibility
    /// When it was created.
    public var createdAt: Date
    /// When it was moved to the trash, if it was.
    public var trashedAt: Date?
    /// Where its frame is on Earth, if it has one.
    public var location: ProjectFrame?
    /// The most anchors one device session keeps (Bubble Vision's cap); saving more evicts the oldest.
    public var anchorsPerSession = Store.defaultAnchorsPerSession
}

/// The geographic origin of a project's frame (ReforestAR's project origin): positions in the
/// project are metres east, up and south of it, turned by `heading`.
public struct ProjectFrame: Sendable, Hashable {
    /// Degrees north, −90…90.
    public var latitude: Double
    /// Degrees east, −180…180.
    public var longitude: Double
    /// Metres above the ellipsoid.
    public var altitude: Double
    /// Degrees clockwise from north of the frame's −z axis, 0..<360.
    public var heading: Double

    /// Creates a frame.
    public init(latitude: Double, longitude: Double, altitude: Double = 0, heading: Double = 0) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.heading = heading
    }
}

/// What changes in a project; `nil` fields stay as they are.
public struct ProjectChange: Sendable, Hashable {
    /// A new display name.
    public var name: String?
    /// A new visibility.
    public var visibility: Visibility?
    /// A new frame: `.some(nil)` removes it.
    public var location: ProjectFrame??
    /// A new cap on the anchors one device session keeps.
    public var anchorsPerSession: Int?

    /// Creates a change.
    public init(
        name: String? = nil, visibility: Visibility? = nil, location: ProjectFrame?? = nil,
        anchorsPerSession: Int? = nil
    ) {
        self.name = name
        self.visibility = visibility
        self.location = location
        self.anchorsPerSession = anchorsPerSession
    }
}

/// A member of a project.
public struct Member: Sendable, Hashable {
    /// The member's account name.
    public var username: String
    /// What the member may do.
    public var role: Role
}

/// A spec's latest version, as listed.
public typealias SpecSummary = SpecVersion

/// One saved version of a spec.
public struct SpecVersion: Sendable, Hashable {
    /// The spec's name in its project.
    public var name: String
    /// 1, 2, 3 … in order of saving.
    public var version: Int
    /// The body's SHA-256, hex; with the version it makes the `ETag`.
    public var contentHash: String
    /// `application/json` or `application/yaml`, as it was sent.
    public var mediaType: String
    /// Who saved it, if the account still exists.
    public var author: String?
    /// When it was saved.
    public var createdAt: Date
    /// The spec as it was sent; `nil` when only the list of versions was asked for.
    public var body: [UInt8]?

    /// Creates a version (the store makes the saved ones; a server makes unsaved ones for previews).
    public init(
        name: String, version: Int, contentHash: String, mediaType: String, author: String?, createdAt: Date,
        body: [UInt8]?
    ) {
        self.name = name
        self.version = version
        self.contentHash = contentHash
        self.mediaType = mediaType
        self.author = author
        self.createdAt = createdAt
        self.body = body
    }
}

extension Date {
    /// The date at the store's precision (whole milliseconds since 1970), so what is written reads back equal.
    var storePrecision: Date {
        Date(timeIntervalSince1970: (timeIntervalSince1970 * 1000).rounded() / 1000)
    }
}

/// A planting area of a project: GeoJSON polygons (with holes), and zones kept clear.
public struct PlantingArea: Sendable, Hashable {
    /// Stable identifier.
    public var id: String
    /// Display name.
    public var name: String
    /// The GeoJSON of the polygons to plant, as sent.
    public var area: [UInt8]
    /// The GeoJSON of the zones kept clear, if any.
    public var exclusions: [UInt8]?
    /// The area planted, in square metres (holes excluded).
    public var squareMetres: Double
    /// When it was added.
    public var createdAt: Date
}

/// A stored plan of an area.
public struct StoredPlan: Sendable, Hashable {
    /// Stable identifier.
    public var id: String
    /// The area planned.
    public var areaID: String
    /// The plan's summary as JSON (trees, density, per species, shortfall).
    public var summary: String
    /// The trees as GeoJSON points; `nil` when only the list was asked for.
    public var geojson: [UInt8]?
    /// When it was made.
    public var createdAt: Date
}

/// A tree planted in a project, in the project frame.
public struct Tree: Sendable, Hashable {
    /// Stable identifier.
    public var id: String
    /// The species' Latin name.
    public var species: String
    /// Metres every other tree keeps from it (the larger of two trees' spacings applies).
    public var spacing: Double
    /// Metres in the project frame.
    public var x: Double, y: Double, z: Double
    /// Who planted it, if the account still exists.
    public var plantedBy: String?
    /// When.
    public var plantedAt: Date
    /// The planting client's id for the change, so a retry is applied once.
    public var clientID: String?
    /// How it stands: its scale (1 is the species' own size) and its turn about the frame's y axis,
    /// in radians (counter-clockwise seen from above).
    public var scale: Double, yaw: Double
    /// The tap group it was planted in, and the device session that planted it (AR planting).
    public var group: String?, session: String?

    /// Creates a tree.
    public init(
        id: String = UUID().uuidString.lowercased(), species: String, spacing: Double, x: Double, y: Double, z: Double,
        plantedBy: String? = nil, plantedAt: Date = Date(), clientID: String? = nil, scale: Double = 1,
        yaw: Double = 0, group: String? = nil, session: String? = nil
    ) {
        self.id = id
        self.species = species
        self.spacing = spacing
        self.x = x
        self.y = y
        self.z = z
        self.plantedBy = plantedBy
        self.plantedAt = plantedAt
        self.clientID = clientID
        self.scale = scale
        self.yaw = yaw
        self.group = group
        self.session = session
    }
}

/// What a tap group's planner decides from the trees standing around the tap.
public enum TreeGroupDecision: Sendable {
    /// Plant these trees.
    case plant([Tree])
    /// Plant nothing: `reason` says why, `blocking` are the standing trees in the way.
    case refuse(blocking: [Tree], reason: String)
}

/// What ``Store/plantTreeGroup(projectID:session:clientID:around:_:within:plantedByID:decide:)`` did.
public enum TreeGroupOutcome: Sendable, Hashable {
    /// The group was planted now.
    case planted([Tree])
    /// The group was planted before under the same client id; nothing changed.
    case retried([Tree])
    /// Nothing was planted: `reason` says why, `blocking` are the trees in the way.
    case refused(blocking: [Tree], reason: String)
}

/// An anchor of a project: a pose in the project frame, what the app attaches, and when it expires.
public struct Anchor: Sendable, Hashable {
    /// Stable identifier.
    public var id: String
    /// The device session that placed it.
    public var session: String?
    /// Position x, y, z then orientation quaternion x, y, z, w, in the project frame.
    public var pose: [Double]
    /// The app's JSON, as sent.
    public var payload: [UInt8]?
    /// When it was saved.
    public var createdAt: Date
    /// When it disappears.
    public var expiresAt: Date

    /// Creates an anchor.
    public init(
        id: String = UUID().uuidString.lowercased(), session: String?, pose: [Double], payload: [UInt8]?,
        createdAt: Date, expiresAt: Date
    ) {
        self.id = id
        self.session = session
        self.pose = pose
        self.payload = payload
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}

/// A world-anchored annotation placed in a room (a remote expert's tap, resolved on the server), kept
/// in the project until deleted.
public struct Annotation: Sendable, Hashable {
    /// Stable identifier.
    public var id: String
    /// The room (device session) it was placed in.
    public var room: String
    /// Metres in the room's frame.
    public var x: Double, y: Double, z: Double
    /// What it says, if anything.
    public var text: String?
    /// The video frame the tap was made on, when known.
    public var frame: Int64?
    /// Who placed it, if the account still exists.
    public var author: String?
    /// When.
    public var createdAt: Date
    /// The placing client's id for the change, so a retry is applied once.
    public var clientID: String?

    /// Creates an annotation.
    public init(
        id: String = UUID().uuidString.lowercased(), room: String, x: Double, y: Double, z: Double, text: String? = nil,
        frame: Int64? = nil, author: String? = nil, createdAt: Date = Date(), clientID: String? = nil
    ) {
        self.id = id
        self.room = room
        self.x = x
        self.y = y
        self.z = z
        self.text = text
        self.frame = frame
        self.author = author
        self.createdAt = createdAt
        self.clientID = clientID
    }
}

/// One row of a project dataset: its position in the store's sequence, when it arrived, and its
/// values as a JSON object (`{"time": "…", "value": 3.2}`).
public struct DatasetRow: Sendable, Hashable {
    /// Increasing across the server; a client resumes after the last it holds.
    public var sequence: Int64
    /// When it was appended.
    public var createdAt: Date
    /// The row as compact JSON text: an object of column name to string, number, boolean or null.
    public var json: String

    /// Creates a row.
    public init(sequence: Int64, createdAt: Date, json: String) {
        self.sequence = sequence
        self.createdAt = createdAt
        self.json = json
    }
}
