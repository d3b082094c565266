public import ARVisSupport
public import Foundation
import SQLKit

extension Store {
    /// Creates an account; usernames are unique without regard to case.
    /// - Throws: ``StoreError`` `conflict` when the name is taken.
    public func createAccount(username: String, passwordHash: String, now date: Date = Date()) async throws(StoreError)
        -> Account
    {
        let now = date.storePrecision
        let account = Account(id: UUID().uuidString.lowercased(), username: username, createdAt: now)
        try await transaction { database in
            let key = username.lowercased()
            guard try await database.raw("SELECT id FROM accounts WHERE username_key = \(bind: key)").first() == nil
            else {
                throw StoreError(.conflict, "the username '\(username)' is taken", location: "accounts/\(username)")
            }
            try await database.raw(
                """
                INSERT INTO accounts (id, username, username_key, password_hash, created_at)
                VALUES (\(bind: account.id), \(bind: username), \(bind: key), \(bind: passwordHash), \(bind: now.timeIntervalSince1970))
                """
            ).run()
        }
        return account
    }

    /// The account named `username` (any case) and its password hash, or `nil`.
    public func credentials(username: String) async throws(StoreError) -> (account: Account, passwordHash: String)? {
        try await withDatabase { database in
            guard
                let row = try await database.raw(
                    """
                    SELECT id, username, password_hash, created_at FROM accounts WHERE username_key = \(bind: username.lowercased())
                    """
                ).first()
            else { return nil }
            return (try Self.account(row), try row.decode(column: "password_hash", as: String.self))
        }
    }

    /// Replaces an account's password hash and signs out every session but `keeping`.
    public func changePasswordHash(accountID: String, to hash: String, keeping tokenHash: String?)
        async throws(StoreError)
    {
        try await recordingTransaction { database, recorder in
            try await database.raw("UPDATE accounts SET password_hash = \(bind: hash) WHERE id = \(bind: accountID)")
                .run()
            try await database.raw(
                "DELETE FROM sessions WHERE account_id = \(bind: accountID) AND token_hash <> \(bind: tokenHash ?? "")"
            ).run()
            try await Self.recordAccessChanged(
                ofAccount: accountID, because: "the password changed", on: database, recorder)
        }
    }

    /// Records a session token (its hash only) until `expiresAt`.
    public func createSession(accountID: String, tokenHash: String, expiresAt: Date) async throws(StoreError) {
        try await withDatabase { database in
            try await database.raw(
                """
                INSERT INTO sessions (token_hash, account_id, expires_at) VALUES (\(bind: tokenHash), \(bind: accountID), \(bind: expiresAt.timeIntervalSince1970))
                """
            ).run()
        }
    }

    /// The account a token hash signs in, if the session exists and has not expired.
    public func account(tokenHash: String, now: Date = Date()) async throws(StoreError) -> Account? {
        try await withDatabase { database in
            try await database.raw(
                """
                SELECT accounts.id, accounts.username, accounts.created_at FROM sessions JOIN accounts ON accounts.id = sessions.account_id
                WHERE sessions.token_hash = \(bind: tokenHash) AND sessions.expires_at > \(bind: now.timeIntervalSince1970)
                """
            ).first().map(Self.account)
        }
    }

    /// Ends a session at once.
    public func deleteSession(tokenHash: String) async throws(StoreError) {
        try await recordingTransaction { database, recorder in
            let accountID = try await database.raw(
                "SELECT account_id FROM sessions WHERE token_hash = \(bind: tokenHash)"
            )
            .first(decodingColumn: "account_id", as: String.self)
            try await database.raw("DELETE FROM sessions WHERE token_hash = \(bind: tokenHash)").run()
            if let accountID {
                try await Self.recordAccessChanged(ofAccount: accountID, because: "signed out", on: database, recorder)
            }
        }
    }

    static func account(_ row: any SQLRow) throws -> Account {
        Account(
            id: try row.decode(column: "id", as: String.self),
            username: try row.decode(column: "username", as: String.self),
            createdAt: Date(timeIntervalSince1970: try row.decode(column: "created_at", as: Double.self)))
    }
}

extension Store {
    /// Deletes an account with its sessions and memberships. Projects it alone owns go to the trash
    /// (restorable by an administrator for 30 days); projects with other owners keep going.
    public func deleteAccount(id: String, now date: Date = Date()) async throws(StoreError) {
        let now = date.storePrecision
        defer { cache.forgetProjects() }
        try await recordingTransaction { database, recorder in
            try await Self.recordAccessChanged(
                ofAccount: id, because: "the account was deleted", on: database, recorder)
            try await database.raw(
                """
                UPDATE projects SET trashed_at = \(bind: now.timeIntervalSince1970)
                WHERE trashed_at IS NULL AND id IN (SELECT project_id FROM members WHERE account_id = \(bind: id) AND role = 'owner')
                AND NOT EXISTS (SELECT 1 FROM members AS others WHERE others.project_id = projects.id AND others.role = 'owner' AND others.account_id <> \(bind: id))
                """
            ).run()
            try await database.raw("DELETE FROM accounts WHERE id = \(bind: id)").run()
        }
    }
}
