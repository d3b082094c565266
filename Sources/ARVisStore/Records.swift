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
}

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
