import ARVisGraphics
import ARVisSpec
import ARVisStore
import Foundation
import HummingbirdBcrypt
import OpenAPIRuntime

/// The handlers of the operations in `openapi.yaml` this server implements (the generator's filter
/// in `openapi-generator-config.yaml` lists them).
struct ARVisAPI: APIProtocol {
    let store: Store
    let configuration: ServerConfiguration
    /// Failed sign-ins per account name.
    let accountLimiter: SignInLimiter
    /// Failed sign-ins per client address.
    let addressLimiter: SignInLimiter
    /// The gallery's files and their processing.
    let library: AssetLibrary

    init(store: Store, configuration: ServerConfiguration, library: AssetLibrary) {
        self.store = store
        self.configuration = configuration
        self.library = library
        accountLimiter = SignInLimiter(limit: configuration.signInAttempts, window: configuration.signInWindow)
        addressLimiter = SignInLimiter(limit: configuration.signInAttemptsPerAddress, window: configuration.signInWindow)
    }

    /// The version `/health` reports.
    static let version = ARVisVersion.current

    // MARK: Operations

    func health(_ input: Operations.Health.Input) async throws -> Operations.Health.Output {
        guard await store.ping() else { return .serviceUnavailable(.init(body: .json(Self.error("unavailable", "the database does not answer")))) }
        return .ok(.init(body: .json(.init(status: .ok, version: Self.version, database: store.engine == .postgres ? .postgres : .sqlite))))
    }

    static func error(_ code: String, _ message: String) -> Components.Schemas._Error {
        .init(error: .init(code: code, message: message))
    }

    /// The answer to a password outside 10–200 characters.
    static let weakPassword = Components.Responses.Unprocessable(body: .json(error("weakPassword", "a password is 10 to 200 characters")))

    static func isAcceptablePassword(_ password: String) -> Bool { (10...200).contains(password.count) }

    /// The stored hash of a new password, at the configured bcrypt cost (clamped to bcrypt's 4–31).
    func passwordHash(_ password: String) -> String {
        Bcrypt.hash(Self.prepared(password), cost: UInt8(clamping: min(31, max(4, configuration.passwordCost))))
    }

    /// bcrypt over the password's SHA-256 (base64), so passwords longer than bcrypt's 72 bytes still count whole.
    static func prepared(_ password: String) -> String {
        Data(SHA256.hash(Array(password.utf8))).base64EncodedString()
    }
}
