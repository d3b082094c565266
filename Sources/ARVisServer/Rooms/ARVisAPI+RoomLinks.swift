import ARVisSpec
import ARVisStore
import Foundation
import HTTPTypes

extension ARVisAPI {
    /// The subprotocol prefix a device joins a room with by its link: `arvis.link.TOKEN`.
    static let roomLinkProtocol = "arvis.link."

    func createRoomLink(_ input: Operations.CreateRoomLink.Input) async throws -> Operations.CreateRoomLink.Output {
        let access = try await access(input.path.project, needs: .owner)
        guard case .json(let request) = input.body else { throw APIError.badRequest("send JSON {minutes?, spec?}") }
        try await services.requireQuota(.roomLinks(1), projectID: access.project.id)
        let room = try Self.room(input.path.room)
        let minutes = request.minutes ?? 60
        guard (1...1440).contains(minutes) else {
            throw APIError.invalid(.invalidLifetime, "a room link works 1 to 1440 minutes (a day)")
        }
        if request.spec != nil, access.project.visibility == .private {
            throw APIError.invalid(
                .privateProject,
                "a room link opens a spec's phone page, which a private project's device cannot open without signing in: make the project unlisted, or make the link without a spec"
            )
        }
        if let spec = request.spec {
            // A link to a spec that does not exist is a 404 now, not later.
            _ = try await services.spec(spec, in: access)
        }
        let token = SessionToken.make()
        let link = RoomLink(
            projectID: access.project.id, room: room, spec: request.spec,
            expiresAt: Date(timeIntervalSinceNow: Double(minutes) * 60), creatorID: access.account?.id)
        try await store.createRoomLink(link, tokenHash: SessionToken.hash(token))
        let slug = access.project.slug
        let url =
            request.spec.map { "/s/\(slug)/\($0)?room=\(room)#link=\(token)" }
            ?? "/live/\(slug)/rooms/\(room)?role=publisher"
        return .created(
            .init(
                body: .json(
                    .init(
                        id: link.id, token: token, room: room, spec: request.spec, url: url, expiresAt: link.expiresAt))
            ))
    }

    func listRoomLinks(_ input: Operations.ListRoomLinks.Input) async throws -> Operations.ListRoomLinks.Output {
        let access = try await access(input.path.project, needs: .owner)
        let links = try await store.roomLinks(projectID: access.project.id, room: try Self.room(input.path.room))
        return .ok(
            .init(
                body: .json(
                    .init(
                        links: links.map {
                            .init(
                                id: $0.link.id, room: $0.link.room, spec: $0.link.spec, expiresAt: $0.link.expiresAt,
                                createdBy: $0.creator)
                        }))))
    }

    func deleteRoomLink(_ input: Operations.DeleteRoomLink.Input) async throws -> Operations.DeleteRoomLink.Output {
        let access = try await access(input.path.project, needs: .owner)
        try await store.deleteRoomLink(
            projectID: access.project.id, room: try Self.room(input.path.room), id: input.path.id)
        return .noContent(.init())
    }

    /// `name` when it can name a room.
    /// - Throws: ``APIError`` `400` otherwise.
    static func room(_ name: String) throws -> String {
        guard ItemName.isValid(name) else {
            throw APIError.badRequest(
                "a room name is 1 to 100 letters, digits, '_' or '-', starting with a letter or digit")
        }
        return name
    }

    func lookUpRoomLink(_ input: Operations.LookUpRoomLink.Input) async throws -> Operations.LookUpRoomLink.Output {
        guard case .json(let request) = input.body else { throw APIError.badRequest("send JSON {token}") }
        let (link, project) = try await services.roomLink(request.token)
        return .ok(
            .init(
                body: .json(.init(project: project.slug, room: link.room, spec: link.spec, expiresAt: link.expiresAt))))
    }

}

extension ServerServices {
    /// Checks what a live client was let in with again: its room link, or its token's role.
    /// - Throws: the ``APIError`` a new connection would get.
    func recheck(_ grant: LiveHub.Grant) async throws {
        if let link = grant.roomLink {
            _ = try await roomLink(link)
        } else {
            _ = try await access(grant.slug, needs: grant.role, token: grant.token)
        }
    }

    /// The unexpired room link `token` names, with its project.
    /// - Throws: ``APIError`` `404` for a token no link has (or whose project is gone or in the
    ///   trash), `410` `roomLinkExpired` for one past its expiry, `410` `roomLinkRevoked` when the
    ///   account that made it no longer owns the project.
    func roomLink(_ token: String, now: Date = Date()) async throws -> (RoomLink, Project) {
        guard (1...128).contains(token.utf8.count),
            let link = try await store.roomLink(tokenHash: SessionToken.hash(token)),
            let project = try await store.project(id: link.projectID), project.trashedAt == nil
        else {
            throw APIError.notFound("no room link with this token: ask the project's owner for a new one")
        }
        guard link.expiresAt > now else {
            throw APIError(
                .gone, .roomLinkExpired,
                "this room link expired at \(link.expiresAt.formatted(.iso8601)): ask the project's owner for a new one"
            )
        }
        guard let creator = link.creatorID, try await store.role(accountID: creator, projectID: project.id) == .owner
        else {
            throw APIError(
                .gone, .roomLinkRevoked,
                "the owner who made this room link no longer owns the project: ask a current owner for a new one")
        }
        return (link, project)
    }
}
