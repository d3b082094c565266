import ARVisStore
import Foundation
import OpenAPIRuntime

extension ARVisAPI {
    /// How long a trashed project can be restored before it is purged.
    static let trashRetention: TimeInterval = 30 * 86_400

    /// A slug from a name: lowercase ASCII letters and digits, runs of anything else as one `-`.
    static func slug(from name: String) -> String {
        var slug = ""
        for scalar in name.lowercased().unicodeScalars {
            if scalar.isASCIIAlphanumeric {
                slug.unicodeScalars.append(scalar)
            } else if !slug.isEmpty, !slug.hasSuffix("-") {
                slug.append("-")
            }
        }
        while slug.hasSuffix("-") { slug.removeLast() }
        let trimmed = String(slug.prefix(64))
        return trimmed.count >= 2
            ? (trimmed.hasSuffix("-") ? String(trimmed.dropLast()) : trimmed) : "project-\(trimmed)"
    }

    /// Slugs: 2–64 lowercase letters and digits in runs joined by single hyphens.
    static func isValidSlug(_ slug: String) -> Bool {
        guard (2...64).contains(slug.count), !slug.hasPrefix("-"), !slug.hasSuffix("-"), !slug.contains("--") else {
            return false
        }
        return slug.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }

    static func schema(_ project: Project, role: Role?) -> Components.Schemas.Project {
        .init(
            slug: project.slug, name: project.name,
            visibility: .init(rawValue: project.visibility.rawValue) ?? ._private,
            location: project.location.map {
                .init(latitude: $0.latitude, longitude: $0.longitude, altitude: $0.altitude, heading: $0.heading)
            },
            anchorsPerSession: project.anchorsPerSession,
            role: role.flatMap { Components.Schemas.Role(rawValue: $0.rawValue) }, createdAt: project.createdAt,
            trashedAt: project.trashedAt)
    }

    /// A project name, trimmed: 1–200 characters.
    static func projectName(_ name: String) throws -> String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...200).contains(trimmed.count) else {
            throw APIError.invalid(.invalidName, "a project name is 1 to 200 characters")
        }
        return trimmed
    }

    /// A project frame within the ranges of the document (finite, on Earth, heading 0..<360).
    static func frame(_ frame: Components.Schemas.ProjectFrame) throws -> ProjectFrame {
        let value = ProjectFrame(
            latitude: frame.latitude, longitude: frame.longitude, altitude: frame.altitude ?? 0,
            heading: frame.heading ?? 0)
        guard (-90...90).contains(value.latitude), (-180...180).contains(value.longitude),
            (-1000...10_000).contains(value.altitude),
            (0..<360).contains(value.heading)
        else {
            throw APIError.invalid(
                .invalidLocation,
                "a location has a latitude in −90…90, a longitude in −180…180, an altitude in −1000…10000 m and a heading in 0…<360°"
            )
        }
        return value
    }

    /// A cap on the anchors one device session keeps: 1 to 1000.
    static func anchorCap(_ cap: Int) throws(APIError) -> Int {
        guard Store.anchorsPerSessionRange.contains(cap) else {
            throw APIError.invalid(
                .invalidAnchorCap, "anchorsPerSession is 1 to 1000 (the anchors one device session keeps); got \(cap)")
        }
        return cap
    }

    func createProject(_ input: Operations.CreateProject.Input) async throws -> Operations.CreateProject.Output {
        let account = try await requireAccount()
        guard case .json(let creation) = input.body else {
            throw APIError.badRequest("send JSON {name, slug?, visibility}")
        }
        try await services.requireProjectQuota(accountID: account.id)
        let name = try Self.projectName(creation.name)
        let slug = creation.slug ?? Self.slug(from: name)
        guard Self.isValidSlug(slug) else {
            throw APIError.invalid(
                .invalidSlug, "a slug is 2 to 64 lowercase letters and digits, joined by single hyphens")
        }
        let visibility = Visibility(rawValue: creation.visibility.rawValue) ?? .private
        let location = try creation.location.map(Self.frame)
        let cap = try Self.anchorCap(creation.anchorsPerSession ?? Store.defaultAnchorsPerSession)
        let project = try await answering { () async throws(StoreError) in
            try await store.createProject(
                slug: slug, name: name, visibility: visibility, location: location, anchorsPerSession: cap,
                ownerID: account.id)
        }
        return .created(.init(body: .json(Self.schema(project, role: .owner))))
    }

    func getProject(_ input: Operations.GetProject.Input) async throws -> Operations.GetProject.Output {
        let access = try await access(input.path.project, includingTrashed: true)
        return .ok(.init(body: .json(Self.schema(access.project, role: access.role))))
    }

    func listProjects(_ input: Operations.ListProjects.Input) async throws -> Operations.ListProjects.Output {
        let account = try await requireAccount()
        let projects = try await store.projects(accountID: account.id)
        return .ok(.init(body: .json(.init(projects: projects.map { Self.schema($0.project, role: $0.role) }))))
    }

    func updateProject(_ input: Operations.UpdateProject.Input) async throws -> Operations.UpdateProject.Output {
        guard case .json(let body) = input.body else {
            throw APIError.badRequest("send JSON {name?, visibility?, location?, removeLocation?, anchorsPerSession?}")
        }
        // Editors may rename; visibility, location and the anchor cap are the owners'.
        let ownersOnly =
            body.visibility != nil || body.location != nil || body.removeLocation == true
            || body.anchorsPerSession != nil
        let needs: Role = ownersOnly ? .owner : .editor
        let access = try await access(input.path.project, needs: needs)
        var change = ProjectChange(
            name: try body.name.map(Self.projectName),
            visibility: body.visibility.flatMap { Visibility(rawValue: $0.rawValue) },
            anchorsPerSession: try body.anchorsPerSession.map(Self.anchorCap))
        if let location = body.location {
            change.location = .some(try Self.frame(location))
        } else if body.removeLocation == true {
            change.location = .some(nil)
        }
        let project = try await answering { () async throws(StoreError) in
            try await store.updateProject(id: access.project.id, change)
        }
        return .ok(.init(body: .json(Self.schema(project, role: access.role))))
    }

    func trashProject(_ input: Operations.TrashProject.Input) async throws -> Operations.TrashProject.Output {
        let access = try await access(input.path.project, needs: .owner)
        try await store.setTrashed(projectID: access.project.id, at: Date())
        return .noContent(.init())
    }

    func restoreProject(_ input: Operations.RestoreProject.Input) async throws -> Operations.RestoreProject.Output {
        let access = try await access(input.path.project, needs: .owner, includingTrashed: true)
        try await store.setTrashed(projectID: access.project.id, at: nil)
        var project = access.project
        project.trashedAt = nil
        return .ok(.init(body: .json(Self.schema(project, role: access.role))))
    }
}

extension Optional {
    /// The wrapped value transformed by an async function, or `nil`.
    func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}
