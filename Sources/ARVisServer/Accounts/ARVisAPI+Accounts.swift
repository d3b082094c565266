import ARVisStore
import ARVisSupport
import Foundation
import HummingbirdBcrypt
import OpenAPIRuntime

extension ARVisAPI {
    /// Usernames: 3–40 letters, digits, `.`, `_` or `-`, starting with a letter or digit.
    static func isValidUsername(_ name: String) -> Bool {
        guard (3...40).contains(name.count), let first = name.unicodeScalars.first, first.isASCIIAlphanumeric else {
            return false
        }
        return name.unicodeScalars.allSatisfy { $0.isASCIIAlphanumeric || $0 == "." || $0 == "_" || $0 == "-" }
    }

    func signUp(_ input: Operations.SignUp.Input) async throws -> Operations.SignUp.Output {
        guard case .json(let credentials) = input.body else {
            return .badRequest(.init(body: .json(Self.error(.badRequest, "send JSON {username, password}"))))
        }
        guard Self.isValidUsername(credentials.username) else {
            return .unprocessableContent(
                .init(
                    body: .json(
                        Self.error(
                            .invalidUsername,
                            "a username is 3 to 40 letters, digits, '.', '_' or '-', starting with a letter or digit")))
            )
        }
        guard Self.isAcceptablePassword(credentials.password) else { return .unprocessableContent(Self.weakPassword) }
        // Counted per client address (in-process calls have none).
        if let address = RequestAddress.current {
            if let seconds = await services.signUpLimiter.retryAfter(address) {
                return .tooManyRequests(
                    .init(
                        headers: .init(retryAfter: seconds),
                        body: .json(
                            Self.error(
                                .tooManySignUps,
                                "too many accounts were made from this address; try again in \(seconds) s"))))
            }
            await services.signUpLimiter.recordFailure(address)
        }
        let hash = try await services.passwordHash(credentials.password)
        do {
            let account = try await store.createAccount(username: credentials.username, passwordHash: hash)
            return .created(.init(body: .json(.init(username: account.username, createdAt: account.createdAt))))
        } catch {
            guard error.code == .conflict else { throw error }
            return .conflict(.init(body: .json(Self.error(.usernameTaken, error.message))))
        }
    }

    func signIn(_ input: Operations.SignIn.Input) async throws -> Operations.SignIn.Output {
        guard case .json(let credentials) = input.body else {
            return .badRequest(.init(body: .json(Self.error(.badRequest, "send JSON {username, password}"))))
        }
        let found: Account
        switch try await checkPassword(credentials.password, username: credentials.username, signingIn: true) {
        case .matches(let account): found = account
        case .wrong:
            return .unauthorized(
                .init(
                    headers: .init(wwwAuthenticate: "Bearer"),
                    body: .json(Self.error(.badCredentials, "the username or the password is wrong"))))
        case .wait(let seconds, let refusal):
            return .tooManyRequests(.init(headers: .init(retryAfter: seconds), body: .json(refusal)))
        }
        let token = SessionToken.make()
        let expiresAt = Date().addingTimeInterval(configuration.sessionLifetime)
        try await store.createSession(accountID: found.id, tokenHash: SessionToken.hash(token), expiresAt: expiresAt)
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
        guard case .json(let change) = input.body else {
            return .badRequest(.init(body: .json(Self.error(.badRequest, "send JSON {currentPassword, newPassword}"))))
        }
        switch try await checkPassword(change.currentPassword, username: account.username) {
        case .matches: break
        case .wrong:
            return .forbidden(.init(body: .json(Self.error(.badCredentials, "the current password is wrong"))))
        case .wait(let seconds, let refusal):
            return .tooManyRequests(.init(headers: .init(retryAfter: seconds), body: .json(refusal)))
        }
        guard Self.isAcceptablePassword(change.newPassword) else { return .unprocessableContent(Self.weakPassword) }
        let hash = try await services.passwordHash(change.newPassword)
        try await store.changePasswordHash(accountID: account.id, to: hash, keeping: SessionToken.hash(token))
        return .noContent(.init())
    }

    func deleteAccount(_ input: Operations.DeleteAccount.Input) async throws -> Operations.DeleteAccount.Output {
        let account = try await requireAccount()
        guard case .json(let confirmation) = input.body else {
            return .badRequest(.init(body: .json(Self.error(.badRequest, "send JSON {password}"))))
        }
        switch try await checkPassword(confirmation.password, username: account.username) {
        case .matches: break
        case .wrong: return .forbidden(.init(body: .json(Self.error(.badCredentials, "the password is wrong"))))
        case .wait(let seconds, let refusal):
            return .tooManyRequests(.init(headers: .init(retryAfter: seconds), body: .json(refusal)))
        }
        try await store.deleteAccount(id: account.id)
        return .noContent(.init())
    }

    /// What a password check found.
    enum PasswordCheck {
        case matches(Account)
        case wrong
        /// Too many failures: the seconds to wait, and the refusal saying why.
        case wait(Int, Components.Schemas._Error)
    }

    /// Checks `password` against `username`'s account, under the limit on failures per account and
    /// client address; a sign-in (`signingIn`) also counts against the address's limit over all
    /// accounts. An unknown name is checked against the decoy hash, so it takes as long as a wrong password.
    func checkPassword(_ password: String, username: String, signingIn: Bool = false) async throws -> PasswordCheck {
        let address = RequestAddress.current ?? "-"
        let key = "\(username.lowercased()) \(address)"
        if let seconds = await services.accountLimiter.retryAfter(key) {
            return .wait(
                seconds,
                Self.error(
                    .tooManyAttempts,
                    "too many wrong passwords for this account from this address; try again in \(seconds) s"))
        }
        if signingIn, let seconds = await services.addressLimiter.retryAfter(address) {
            return .wait(
                seconds,
                Self.error(.tooManyAttempts, "too many failed sign-ins from this address; try again in \(seconds) s"))
        }
        let found = try await store.credentials(username: username)
        guard try await services.passwordMatches(password, hash: found?.passwordHash), let found else {
            await services.accountLimiter.recordFailure(key)
            if signingIn { await services.addressLimiter.recordFailure(address) }
            return .wrong
        }
        // An address's failures stay counted: signing in to one account does not buy guesses at others.
        await services.accountLimiter.recordSuccess(key)
        return .matches(found.account)
    }
}
