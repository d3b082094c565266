public import ARVisSupport
import Foundation
import SQLKit

extension Store {
    /// A project's members, owners first, then by name.
    public func members(projectID: String) async throws(StoreError) -> [Member] {
        try await withDatabase { database in
            try await database.raw(
                """
                SELECT accounts.username, members.role FROM members JOIN accounts ON accounts.id = members.account_id
                WHERE members.project_id = \(bind: projectID) ORDER BY accounts.username_key
                """
            ).all().map { row in
                Member(
                    username: try row.decode(column: "username", as: String.self),
                    role: Role(rawValue: try row.decode(column: "role", as: String.self)) ?? .viewer)
            }
            .sorted { $0.role > $1.role }
        }
    }

    /// Adds `username` to a project with `role`, or changes its role.
    /// - Throws: ``StoreError`` `notFound` when there is no such account; `conflict` when the change
    ///   would leave the project without an owner.
    public func setMember(projectID: String, username: String, role: Role) async throws(StoreError) -> Member {
        try await recordingTransaction(lock: "members:\(projectID)") { database, recorder in
            let accountID = try await Self.accountID(username: username, on: database)
            if role != .owner {
                try await Self.requireAnotherOwner(projectID: projectID, than: accountID, on: database)
            }
            try await database.raw(
                """
                INSERT INTO members (project_id, account_id, role) VALUES (\(bind: projectID), \(bind: accountID), \(bind: role.rawValue))
                ON CONFLICT (project_id, account_id) DO UPDATE SET role = excluded.role
                """
            ).run()
            try await recorder.record(
                .accessChanged, projectID: projectID, subject: accountID, detail: "now \(role.rawValue)", on: database)
            return Member(username: try await Self.username(accountID: accountID, on: database), role: role)
        }
    }

    /// Removes `username` from a project.
    /// - Throws: ``StoreError`` `notFound` when it is not a member; `conflict` when it is the last owner.
    public func removeMember(projectID: String, username: String) async throws(StoreError) {
        try await recordingTransaction(lock: "members:\(projectID)") { database, recorder in
            let accountID = try await Self.accountID(username: username, on: database)
            try await Self.requireAnotherOwner(projectID: projectID, than: accountID, on: database)
            let isMember =
                try await database.raw(
                    """
                    SELECT 1 AS one FROM members WHERE project_id = \(bind: projectID) AND account_id = \(bind: accountID)
                    """
                ).first() != nil
            guard isMember else {
                throw StoreError(
                    .notFound, "'\(username)' is not a member of this project", location: "members/\(username)")
            }
            try await database.raw(
                "DELETE FROM members WHERE project_id = \(bind: projectID) AND account_id = \(bind: accountID)"
            ).run()
            try await recorder.record(
                .accessChanged, projectID: projectID, subject: accountID, detail: "removed from the project",
                on: database)
        }
    }

    private static func accountID(username: String, on database: any SQLDatabase) async throws -> String {
        guard
            let id = try await database.raw(
                "SELECT id FROM accounts WHERE username_key = \(bind: username.lowercased())"
            )
            .first(decodingColumn: "id", as: String.self)
        else {
            throw StoreError(.notFound, "no account '\(username)'", location: "accounts/\(username)")
        }
        return id
    }

    private static func username(accountID: String, on database: any SQLDatabase) async throws -> String {
        try await database.raw("SELECT username FROM accounts WHERE id = \(bind: accountID)").first(
            decodingColumn: "username", as: String.self) ?? ""
    }

    /// Throws `conflict` when `accountID` is the project's only owner, so a project always keeps one.
    private static func requireAnotherOwner(projectID: String, than accountID: String, on database: any SQLDatabase)
        async throws
    {
        let others =
            try await database.raw(
                """
                SELECT COUNT(*) AS count FROM members WHERE project_id = \(bind: projectID) AND role = 'owner' AND account_id <> \(bind: accountID)
                """
            ).first(decodingColumn: "count", as: Int.self) ?? 0
        let isOwner =
            try await database.raw(
                """
                SELECT 1 AS one FROM members WHERE project_id = \(bind: projectID) AND account_id = \(bind: accountID) AND role = 'owner'
                """
            ).first() != nil
        if isOwner, others == 0 {
            throw StoreError(
                .conflict, "a project keeps at least one owner: make another member an owner first", location: "members"
            )
        }
    }
}
