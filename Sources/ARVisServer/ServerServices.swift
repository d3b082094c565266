import ARVisStore
import Foundation
import HummingbirdBcrypt

/// What the server's handlers work with, made once by ``ARVisServer`` and shared by the generated
/// operations (``ARVisAPI``) and the hand routes alike: the store, the configuration, the gallery,
/// the limiters and pools, and the checks of who may do what (``access(_:needs:includingTrashed:token:)``).
///
/// Who is asking is never read from here: each check takes the request's bearer token as an
/// argument.
struct ServerServices: Sendable {
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
}
