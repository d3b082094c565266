public import ARVisSupport
public import Foundation
import SQLKit

extension Store {
    /// Creates a project with `ownerID` as its owner.
    /// - Throws: ``StoreError`` `conflict` when the slug is taken.
    public func createProject(
        slug: String, name: String, visibility: Visibility, location: ProjectFrame? = nil,
        anchorsPerSession: Int = Store.defaultAnchorsPerSession, ownerID: String, now date: Date = Date()
    ) async throws(StoreError) -> Project {
        let now = date.storePrecision
        let project = Project(
            id: UUID().uuidString.lowercased(), slug: slug, name: name, visibility: visibility, createdAt: now,
            trashedAt: nil, location: location, anchorsPerSession: anchorsPerSession)
        defer { cache.forgetProjects() }
        try await transaction { database in
            guard try await database.raw("SELECT id FROM projects WHERE slug = \(bind: slug)").first() == nil else {
                throw StoreError(.conflict, "the slug '\(slug)' is taken", location: "projects/\(slug)")
            }
            try await database.raw(
                """
                INSERT INTO projects (id, slug, name, visibility, created_at, latitude, longitude, altitude, heading, anchors_per_session) VALUES
                (\(bind: project.id), \(bind: slug), \(bind: name), \(bind: visibility.rawValue), \(bind: now.timeIntervalSince1970),
                 \(bind: location?.latitude), \(bind: location?.longitude), \(bind: location?.altitude), \(bind: location?.heading),
                 \(bind: anchorsPerSession))
                """
            ).run()
            try await database.raw(
                """
                INSERT INTO members (project_id, account_id, role) VALUES (\(bind: project.id), \(bind: ownerID), \(bind: Role.owner.rawValue))
                """
            ).run()
        }
        return project
    }

    /// The project with `slug` (trashed ones included), or `nil`.
    public func project(slug: String) async throws(StoreError) -> Project? {
        if let cached = cache.project(slug: slug) { return cached }
        let generation = cache.generation
        let project = try await withDatabase { database in
            try await database.raw("SELECT * FROM projects WHERE slug = \(bind: slug)").first().map(Self.project)
        }
        cache.remember(project, slug: slug, readAt: generation)
        return project
    }

    /// The project with `id` (trashed ones included), or `nil`.
    public func project(id: String) async throws(StoreError) -> Project? {
        try await withDatabase { database in
            try await database.raw("SELECT * FROM projects WHERE id = \(bind: id)").first().map(Self.project)
        }
    }

    /// The role of an account in a project, or `nil` when it is not a member.
    public func role(accountID: String, projectID: String) async throws(StoreError) -> Role? {
        try await withDatabase { database in
            try await database.raw(
                "SELECT role FROM members WHERE project_id = \(bind: projectID) AND account_id = \(bind: accountID)"
            )
            .first(decodingColumn: "role", as: String.self).flatMap(Role.init(rawValue:))
        }
    }

    /// The projects an account belongs to (trashed ones included), with its role, by slug.
    public func projects(accountID: String) async throws(StoreError) -> [(project: Project, role: Role)] {
        try await withDatabase { database in
            try await database.raw(
                """
                SELECT projects.*, members.role FROM projects JOIN members ON members.project_id = projects.id
                WHERE members.account_id = \(bind: accountID) ORDER BY projects.slug
                """
            ).all().map { row in
                (try Self.project(row), Role(rawValue: try row.decode(column: "role", as: String.self)) ?? .viewer)
            }
        }
    }

    /// Changes a project's name, visibility, frame or anchor cap.
    /// - Throws: ``StoreError`` `notFound` when there is no such project.
    public func updateProject(id: String, _ change: ProjectChange) async throws(StoreError) -> Project {
        defer { cache.forgetProjects() }
        return try await recordingTransaction { database, recorder in
            var assignments: [SQLQueryString] = []
            if let name = change.name { assignments.append("name = \(bind: name)") }
            if let visibility = change.visibility { assignments.append("visibility = \(bind: visibility.rawValue)") }
            if let location = change.location {
                assignments.append(
                    """
                    latitude = \(bind: location?.latitude), longitude = \(bind: location?.longitude),
                    altitude = \(bind: location?.altitude), heading = \(bind: location?.heading)
                    """)
            }
            if let cap = change.anchorsPerSession { assignments.append("anchors_per_session = \(bind: cap)") }
            if !assignments.isEmpty {
                try await database.raw(
                    "UPDATE projects SET \(assignments.joined(separator: ", ")) WHERE id = \(bind: id)"
                ).run()
            }
            guard
                let project = try await database.raw("SELECT * FROM projects WHERE id = \(bind: id)").first().map(
                    Self.project)
            else {
                throw StoreError(.notFound, "no such project", location: "projects/\(id)")
            }
            if let visibility = change.visibility {
                try await recorder.record(
                    .accessChanged, projectID: id, subject: "*", detail: "now \(visibility.rawValue)", on: database)
            }
            return project
        }
    }

    /// Moves a project to the trash at `date`, or takes it out with `nil`; what it holds stays until it is purged.
    public func setTrashed(projectID: String, at date: Date?) async throws(StoreError) {
        let when = date?.storePrecision.timeIntervalSince1970
        defer { cache.forgetProjects() }
        try await recordingTransaction { database, recorder in
            try await database.raw("UPDATE projects SET trashed_at = \(bind: when) WHERE id = \(bind: projectID)").run()
            try await recorder.record(
                .accessChanged, projectID: projectID, subject: "*",
                detail: when == nil ? "restored" : "moved to the trash", on: database)
        }
    }

    /// Deletes for good every project trashed before `cutoff`, with everything in it; returns how many.
    @discardableResult
    public func purgeTrash(before cutoff: Date) async throws(StoreError) -> Int {
        defer { cache.forgetProjects() }
        return try await transaction { database in
            let count =
                try await database.raw(
                    """
                    SELECT COUNT(*) AS count FROM projects WHERE trashed_at IS NOT NULL AND trashed_at < \(bind: cutoff.timeIntervalSince1970)
                    """
                ).first(decodingColumn: "count", as: Int.self) ?? 0
            try await database.raw(
                "DELETE FROM projects WHERE trashed_at IS NOT NULL AND trashed_at < \(bind: cutoff.timeIntervalSince1970)"
            ).run()
            return count
        }
    }

    static func project(_ row: any SQLRow) throws -> Project {
        let trashed =
            try row.decodeNil(column: "trashed_at") ? nil : try row.decode(column: "trashed_at", as: Double.self)
        var location: ProjectFrame?
        if try !row.decodeNil(column: "latitude") {
            location = ProjectFrame(
                latitude: try row.decode(column: "latitude", as: Double.self),
                longitude: try row.decode(column: "longitude", as: Double.self),
                altitude: try row.decode(column: "altitude", as: Double.self),
                heading: try row.decode(column: "heading", as: Double.self))
        }
        return Project(
            id: try row.decode(column: "id", as: String.self), slug: try row.decode(column: "slug", as: String.self),
            name: try row.decode(column: "name", as: String.self),
            visibility: Visibility(rawValue: try row.decode(column: "visibility", as: String.self)) ?? .private,
            createdAt: Date(timeIntervalSince1970: try row.decode(column: "created_at", as: Double.self)),
            trashedAt: trashed.map(Date.init(timeIntervalSince1970:)), location: location,
            anchorsPerSession: try row.decode(column: "anchors_per_session", as: Int.self))
    }
}
