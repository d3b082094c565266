import ARVisStore
import Foundation
import OpenAPIRuntime

extension ARVisAPI {
    static func schema(_ member: Member) -> Components.Schemas.Member {
        .init(username: member.username, role: .init(rawValue: member.role.rawValue) ?? .viewer)
    }

    func listMembers(_ input: Operations.ListMembers.Input) async throws -> Operations.ListMembers.Output {
        let access = try await access(input.path.project, needs: .viewer)
        let members = try await store.members(projectID: access.project.id)
        return .ok(.init(body: .json(.init(members: members.map(Self.schema)))))
    }

    func setMember(_ input: Operations.SetMember.Input) async throws -> Operations.SetMember.Output {
        let access = try await access(input.path.project, needs: .owner)
        guard case .json(let body) = input.body, let role = Role(rawValue: body.role.rawValue) else {
            throw APIError.badRequest("send JSON {role}")
        }
        let member = try await answering { () async throws(StoreError) in
            try await store.setMember(projectID: access.project.id, username: input.path.username, role: role)
        }
        return .ok(.init(body: .json(Self.schema(member))))
    }

    func removeMember(_ input: Operations.RemoveMember.Input) async throws -> Operations.RemoveMember.Output {
        // Owners remove anyone; every member may leave.
        let leaving = try await requireAccount().username.lowercased() == input.path.username.lowercased()
        let access = try await access(input.path.project, needs: leaving ? .viewer : .owner)
        try await answering { () async throws(StoreError) in
            try await store.removeMember(projectID: access.project.id, username: input.path.username)
        }
        return .noContent(.init())
    }
}
