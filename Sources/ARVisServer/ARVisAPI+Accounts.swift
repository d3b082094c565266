import ARVisStore
import Foundation
import HummingbirdBcrypt
import OpenAPIRuntime

extension ARVisAPI {
    /// Usernames: 3–40 letters, digits, `.`, `_` or `-`, starting with a letter or digit.
    static func isValidUsername(_ name: String) -> Bool {
        guard (3...40).contains(name.count), let first = name.unicodeScalars.first, first.isASCIIAlphanumeric else { return false }
        return name.unicodeScalars.allSatisfy { $0.isASCIIAlphanumeric || $0 == "." || $0 == "_" || $0 == "-" }
    }

    func signUp(_ input: Operations.SignUp.Input) async throws -> Operations.SignUp.Output {
        guard case .json(let credentials) = input.body else { return .badRequest(.init(body: .json(Self.error("badRequest", "send JSON {username, password}")))) }
        guard Self.isValidUsername(credentials.username) else {
            return .unprocessableContent(.init(body: .json(Self.error("invalidUsername", "a username is 3 to 40 letters, digits, '.', '_' or '-', starting with a letter or digit"))))
        }
        guard Self.isAcceptablePassword(credentials.password) else { return .unprocessableContent(Self.weakPassword) }
        let hash = passwordHash(credentials.password)
        do {
            let account = try await store.createAccount(username: credentials.username, passwordHash: hash)
            return .created(.init(body: .json(.init(username: account.username, createdAt: account.createdAt))))
        } catch {
            guard error.code == .conflict else { throw error }
            return .conflict(.init(body: .json(Self.error("usernameTaken", error.message))))
        }
    }

    func signIn(_ input: Operations.SignIn.Input) async throws -> Operations.SignIn.Output {
        guard case .json(let credentials) = input.body else { return .badRequest(.init(body: .json(Self.error("badRequest", "send JSON {username, password}")))) }
        let account = credentials.username.lowercased(), address = RequestAddress.current
        if let seconds = await accountLimiter.retryAfter(account) {
            return .tooManyRequests(.init(headers: .init(retryAfter: seconds),
                                          body: .json(Self.error("tooManyAttempts", "too many failed sign-ins for this account; try again in \(seconds) s"))))
        }
        if let address, let seconds = await addressLimiter.retryAfter(address) {
            return .tooManyRequests(.init(headers: .init(retryAfter: seconds),
                                          body: .json(Self.error("tooManyAttempts", "too many failed sign-ins from this address; try again in \(seconds) s"))))
        }
        guard let found = try await store.credentials(username: credentials.username),
              Bcrypt.verify(Self.prepared(credentials.password), hash: found.passwordHash) else {
            await accountLimiter.recordFailure(account)
            if let address { await addressLimiter.recordFailure(address) }
            return .unauthorized(.init(headers: .init(wwwAuthenticate: "Bearer"), body: .json(Self.error("badCredentials", "the username or the password is wrong"))))
        }
        // An address's failures stay counted: signing in to one account does not buy guesses at others.
        await accountLimiter.recordSuccess(account)
        let token = SessionToken.make()
        let expiresAt = Date().addingTimeInterval(configuration.sessionLifetime)
        try await store.createSession(accountID: found.account.id, tokenHash: SessionToken.hash(token), expiresAt: expiresAt)
        return .created(.init(body: .json(.init(token: token, expiresAt: expiresAt))))
    }

    func signOut(_ input: Operations.SignOut.Input) async throws -> Operations.SignOut.Output {
        guard let token = RequestToken.current else { throw APIError.signInFirst }
        _ = try await requireAccount()
        try await store.deleteSession(tokenHash: SessionToken.hash(token))
        return .noContent(.init())
    }

    func currentAccount(_ input: Operations.CurrentAccount.Input) async throws -> Operations.CurrentAccount.Output {
        let account = try await requireAccount()
        return .ok(.init(body: .json(.init(username: account.username, createdAt: account.createdAt))))
    }
}

extension Unicode.Scalar {
    /// A–Z, a–z or 0–9.
    var isASCIIAlphanumeric: Bool {
        ("a"..."z").contains(self) || ("A"..."Z").contains(self) || ("0"..."9").contains(self)
    }
}

extension ARVisAPI {
    func changePassword(_ input: Operations.ChangePassword.Input) async throws -> Operations.ChangePassword.Output {
        guard let token = RequestToken.current else { throw APIError.signInFirst }
        let account = try await requireAccount()
        guard case .json(let change) = input.body else { return .badRequest(.init(body: .json(Self.error("badRequest", "send JSON {currentPassword, newPassword}")))) }
        guard try await passwordMatches(change.currentPassword, of: account) else {
            return .forbidden(.init(body: .json(Self.error("badCredentials", "the current password is wrong"))))
        }
        guard Self.isAcceptablePassword(change.newPassword) else { return .unprocessableContent(Self.weakPassword) }
        let hash = passwordHash(change.newPassword)
        try await store.changePasswordHash(accountID: account.id, to: hash, keeping: SessionToken.hash(token))
        return .noContent(.init())
    }

    func deleteAccount(_ input: Operations.DeleteAccount.Input) async throws -> Operations.DeleteAccount.Output {
        let account = try await requireAccount()
        guard case .json(let confirmation) = input.body else { return .badRequest(.init(body: .json(Self.error("badRequest", "send JSON {password}")))) }
        guard try await passwordMatches(confirmation.password, of: account) else {
            return .forbidden(.init(body: .json(Self.error("badCredentials", "the password is wrong"))))
        }
        try await store.deleteAccount(id: account.id)
        return .noContent(.init())
    }

    /// Whether `password` is the account's, checked against the stored bcrypt hash.
    private func passwordMatches(_ password: String, of account: Account) async throws -> Bool {
        guard let stored = try await store.credentials(username: account.username) else { return false }
        return Bcrypt.verify(Self.prepared(password), hash: stored.passwordHash)
    }
}
