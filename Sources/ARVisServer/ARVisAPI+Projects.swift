import ARVisStore
import Foundation
import OpenAPIRuntime

extension ARVisAPI {
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
        return trimmed.count >= 2 ? (trimmed.hasSuffix("-") ? String(trimmed.dropLast()) : trimmed) : "project-\(trimmed)"
    }

    /// Slugs: 2–64 lowercase letters and digits in runs joined by single hyphens.
    static func isValidSlug(_ slug: String) -> Bool {
        guard (2...64).contains(slug.count), !slug.hasPrefix("-"), !slug.hasSuffix("-"), !slug.contains("--") else { return false }
        return slug.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }

    static func schema(_ project: Project, role: Role?) -> Components.Schemas.Project {
        .init(slug: project.slug, name: project.name, visibility: .init(rawValue: project.visibility.rawValue) ?? ._private,
              role: role.flatMap { Components.Schemas.Role(rawValue: $0.rawValue) }, createdAt: project.createdAt, trashedAt: project.trashedAt)
    }

    func createProject(_ input: Operations.CreateProject.Input) async throws -> Operations.CreateProject.Output {
        guard let account = try await signedIn() else {
            return .unauthorized(Self.signInFirst)
        }
        guard case .json(let creation) = input.body else { return .badRequest(.init(body: .json(Self.error("badRequest", "send JSON {name, slug?, visibility}")))) }
        let name = creation.name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...200).contains(name.count) else {
            return .unprocessableContent(.init(body: .json(Self.error("invalidName", "a project name is 1 to 200 characters"))))
        }
        let slug = creation.slug ?? Self.slug(from: name)
        guard Self.isValidSlug(slug) else {
            return .unprocessableContent(.init(body: .json(Self.error("invalidSlug", "a slug is 2 to 64 lowercase letters and digits, joined by single hyphens"))))
        }
        let visibility = Visibility(rawValue: creation.visibility.rawValue) ?? .private
        do {
            let project = try await store.createProject(slug: slug, name: name, visibility: visibility, ownerID: account.id)
            return .created(.init(body: .json(Self.schema(project, role: .owner))))
        } catch {
            // (A `catch where` here crashes the 6.3 compiler's ownership checker.)
            guard error.code == .conflict else { throw error }
            return .conflict(.init(body: .json(Self.error("slugTaken", error.message))))
        }
    }

    func getProject(_ input: Operations.GetProject.Input) async throws -> Operations.GetProject.Output {
        let notFound = Operations.GetProject.Output.notFound(.init(body: .json(Self.error("notFound", "no project '\(input.path.project)'"))))
        guard let project = try await store.project(slug: input.path.project) else { return notFound }
        let account = try await signedIn()
        let role = try await account.asyncMap { try await store.role(accountID: $0.id, projectID: project.id) } ?? nil
        // Private and trashed projects exist only for their members.
        guard role != nil || (project.visibility != .private && project.trashedAt == nil) else { return notFound }
        return .ok(.init(body: .json(Self.schema(project, role: role))))
    }

    func listProjects(_ input: Operations.ListProjects.Input) async throws -> Operations.ListProjects.Output {
        guard let account = try await signedIn() else {
            return .unauthorized(Self.signInFirst)
        }
        let projects = try await store.projects(accountID: account.id)
        return .ok(.init(body: .json(.init(projects: projects.map { Self.schema($0.project, role: $0.role) }))))
    }
}

extension Optional {
    /// The wrapped value transformed by an async function, or `nil`.
    func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}
