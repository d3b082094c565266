import ARVisGraphics
import ARVisSpec
import ARVisStore
import ARVisSupport
import Foundation
import HummingbirdBcrypt
import Logging
import OpenAPIRuntime

/// The handlers of the operations in `openapi.yaml` this server implements (the generator's filter
/// in `openapi-generator-config.yaml` lists them).
struct ARVisAPI: APIProtocol {
    /// How far from a project's origin a position may be, in metres, on each axis: trees,
    /// anchors, observations and annotations.
    static let worldRadius = 100_000.0

    let store: Store
    let configuration: ServerConfiguration
    /// Failed password checks per account and client address: guessing is slow, and a stranger's
    /// guesses never lock the owner out (their address counts apart).
    let accountLimiter: SignInLimiter
    /// Failed sign-ins per client address.
    let addressLimiter: SignInLimiter
    /// Sign-ups per client address.
    let signUpLimiter: SignInLimiter
    /// The gallery's files and their processing.
    let library: AssetLibrary
    /// Signed links to assets' files.
    let grants: AssetGrants
    /// Where bcrypt runs: off the server's tasks, a few at a time.
    let passwords: WorkPool
    /// Where saved specs are read and checked (a 5 MB spec takes a moment of CPU).
    let specChecks: WorkPool
    /// A hash checked when the account does not exist, so an unknown name takes as long to refuse
    /// as a wrong password (names cannot be told apart by timing).
    let decoyHash: String
    /// The instance leaving at a SIGTERM: live connections closed, `/health/ready` not ready.
    let drain: Drain

    init(store: Store, configuration: ServerConfiguration, library: AssetLibrary, drain: Drain = Drain()) {
        self.drain = drain
        self.store = store
        self.configuration = configuration
        self.library = library
        grants = AssetGrants(store: store)
        accountLimiter = SignInLimiter(limit: configuration.signInAttempts, window: configuration.signInWindow)
        addressLimiter = SignInLimiter(
            limit: configuration.signInAttemptsPerAddress, window: configuration.signInWindow)
        signUpLimiter = SignInLimiter(limit: configuration.signUpsPerAddress, window: configuration.signUpWindow)
        passwords = WorkPool(
            "password checks", limits: .init(running: WorkPool.backgroundThreads, perClient: 16, waiting: 256))
        specChecks = WorkPool(
            "spec checks", limits: .init(running: WorkPool.backgroundThreads, perClient: 8, waiting: 64))
        decoyHash = Bcrypt.hash(SessionToken.make(), cost: Self.cost(configuration))
    }

    /// The version `/health` reports.
    static let version = ARVisVersion.current

    // MARK: Operations

    func health(_ input: Operations.Health.Input) async throws -> Operations.Health.Output {
        guard await store.ping() else {
            return .serviceUnavailable(.init(body: .json(Self.error(.unavailable, "the database does not answer"))))
        }
        return .ok(
            .init(
                body: .json(
                    .init(status: .ok, version: Self.version, database: store.engine == .postgres ? .postgres : .sqlite)
                )))
    }

    func healthLive(_ input: Operations.HealthLive.Input) async throws -> Operations.HealthLive.Output {
        .ok(.init(body: .json(.init(status: .ok))))
    }

    func healthReady(_ input: Operations.HealthReady.Input) async throws -> Operations.HealthReady.Output {
        func unavailable(_ code: APIError.Code, _ message: String) -> Operations.HealthReady.Output {
            .serviceUnavailable(.init(body: .json(Self.error(code, message))))
        }
        if drain.isDraining { return unavailable(.draining, "this instance is stopping") }
        guard await store.ping() else { return unavailable(.unavailable, "the database does not answer") }
        do { try await library.blobs.checkReady() } catch {
            // The store's address and its error text are for the operator's log, not for anyone asking.
            library.logger.warning("health: the file store cannot be used: \(error)")
            return unavailable(.storageUnavailable, "the file store cannot be used")
        }
        return .ok(
            .init(
                body: .json(
                    .init(
                        status: .ok, version: Self.version, database: store.engine == .postgres ? .postgres : .sqlite,
                        blobStore: library.blobs is S3BlobStore ? .s3 : .folder))))
    }

    /// The items of a page of a list: `limit`, 1 to 10 000, else 1 000.
    static func pageLimit(_ limit: Int?) throws -> Int {
        guard let limit else { return 1_000 }
        guard (1...10_000).contains(limit) else { throw APIError.badRequest("limit is 1 to 10000") }
        return limit
    }

    static func error(_ code: APIError.Code, _ message: String) -> Components.Schemas._Error {
        .init(error: .init(code: .init(value1: .init(rawValue: code.name), value2: code.name), message: message))
    }

    /// The answer to a password outside 10–200 characters.
    static let weakPassword = Components.Responses.Unprocessable(
        body: .json(error(.weakPassword, "a password is 10 to 200 characters")))

    static func isAcceptablePassword(_ password: String) -> Bool { (10...200).contains(password.count) }

    /// The configured bcrypt cost, clamped to bcrypt's 4–31.
    private static func cost(_ configuration: ServerConfiguration) -> UInt8 {
        UInt8(clamping: min(31, max(4, configuration.passwordCost)))
    }

    /// The stored hash of a new password, at the configured bcrypt cost, made on ``passwords``.
    func passwordHash(_ password: String) async throws -> String {
        let cost = Self.cost(configuration)
        return try await passwords.run(client: RequestAddress.current) {
            Bcrypt.hash(Self.prepared(password), cost: cost)
        }
    }

    /// Whether `password` matches the stored `hash` (`nil`: no account, checked against the decoy
    /// so the answer takes as long), on ``passwords``.
    func passwordMatches(_ password: String, hash: String?) async throws -> Bool {
        let stored = hash ?? decoyHash
        let matches = try await passwords.run(client: RequestAddress.current) {
            Bcrypt.verify(Self.prepared(password), hash: stored)
        }
        return matches && hash != nil
    }

    /// bcrypt over the password's SHA-256 (base64), so passwords longer than bcrypt's 72 bytes still count whole.
    static func prepared(_ password: String) -> String {
        Data(Digest.sha256(Array(password.utf8))).base64EncodedString()
    }
}
