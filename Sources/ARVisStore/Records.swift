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

    /// Creates a change.
    public init(name: String? = nil, visibility: Visibility? = nil, location: ProjectFrame?? = nil) {
        self.name = name
        self.visibility = visibility
        self.location = location
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
}

extension Date {
    /// The date at the store's precision (whole milliseconds since 1970), so what is written reads back equal.
    var storePrecision: Date {
        Date(timeIntervalSince1970: (timeIntervalSince1970 * 1000).rounded() / 1000)
    }
}
