import ARVisStore
import Foundation
import Hummingbird

/// What a request may do in a project: who asks, in which role.
struct ProjectAccess: Sendable {
    /// The project.
    var project: Project
    /// The signed-in account, if any.
    var account: Account?
    /// The account's role, or `nil` for anyone else.
    var role: Role?
}

extension ServerServices {
    /// The account the bearer token signs in, `nil` without a token.
    /// - Throws: ``APIError`` `401` when a token is sent but does not sign anyone in (signed out,
    ///   expired or revoked), so a client knows to sign in again instead of seeing less.
    func signedIn(token: String?) async throws -> Account? {
        guard let token else { return nil }
        guard let account = try await store.account(tokenHash: SessionToken.hash(token)) else {
            throw APIError.tokenNotValid
        }
        return account
    }

    /// The signed-in account; throws ``APIError/signInFirst`` without one.
    func requireAccount(token: String?) async throws -> Account {
        guard let account = try await signedIn(token: token) else { throw APIError.signInFirst }
        return account
    }

    /// Checks that the request may act in the project `slug` with at least `needs` (`nil`: read).
    ///
    /// Private and trashed projects do not exist for non-members (`404`, never `403`, so names do
    /// not leak); a trashed project only answers `includingTrashed` operations.
    /// - Throws: ``APIError`` `401` for a write without a valid token, `404`, or `403` for a role below `needs`.
    func access(
        _ slug: String, needs: Role? = nil, includingTrashed: Bool = false,
        token: String?
    ) async throws -> ProjectAccess {
        let account = needs == nil ? try await signedIn(token: token) : try await requireAccount(token: token)
        guard let project = try await store.project(slug: slug) else { throw APIError.notFound("no project '\(slug)'") }
        let role = try await account.asyncMap { try await store.role(accountID: $0.id, projectID: project.id) } ?? nil
        guard role != nil || (project.visibility != .private && project.trashedAt == nil) else {
            throw APIError.notFound("no project '\(slug)'")
        }
        if project.trashedAt != nil, !includingTrashed {
            throw APIError.notFound(
                "the project '\(slug)' is in the trash; an owner can restore it with POST /api/v1/projects/\(slug)/restore"
            )
        }
        if let needs {
            guard let role, role >= needs else {
                throw APIError.forbidden(
                    "this needs the \(needs.rawValue) role in '\(slug)'; you are \(role.map { "a \($0.rawValue)" } ?? "not a member")"
                )
            }
        }
        return ProjectAccess(project: project, account: account, role: role)
    }
}

extension ARVisAPI {
    // The generated operations get no request context: ``ServerResponder`` hands them the request's
    // bearer token as ``RequestToken``, read here for every check (and by sign-out and password
    // change, which end that token's session).

    /// ``ServerServices/signedIn(token:)`` for the request being handled.
    func signedIn() async throws -> Account? {
        try await services.signedIn(token: RequestToken.current)
    }

    /// ``ServerServices/requireAccount(token:)`` for the request being handled.
    func requireAccount() async throws -> Account {
        try await services.requireAccount(token: RequestToken.current)
    }

    /// ``ServerServices/access(_:needs:includingTrashed:token:)`` for the request being handled.
    func access(_ slug: String, needs: Role? = nil, includingTrashed: Bool = false) async throws -> ProjectAccess {
        try await services.access(slug, needs: needs, includingTrashed: includingTrashed, token: RequestToken.current)
    }
}

extension ServerServices {
    /// ``access(_:needs:includingTrashed:token:)`` of a hand route's request to the project its
    /// `{project}` path parameter names, for the request's bearer token.
    func access(_ context: ServerContext, needs: Role? = nil) async throws -> ProjectAccess {
        try await access(try context.parameters.require("project"), needs: needs, token: context.token)
    }
}
