import Crypto
import Foundation

/// The STUN and TURN servers a room member's browser is given for video
/// (`RTCConfiguration.iceServers`). The STUN servers come in the room's `welcome`; TURN credentials
/// only when the member asks (a `turnCredentials` message, as it starts video and again before they
/// expire), in coturn's shared-secret REST scheme: the username is the expiry (Unix seconds) and
/// the member's id, `EXPIRY:ID`, and the credential the Base64 HMAC-SHA1 of that username under the
/// secret. The TURN server checks both without asking this server, and refuses them once the expiry
/// has passed (an allocation made before then lives on: coturn checks credentials when it allocates).
struct ICEServer: Encodable, Equatable, Sendable {
    /// `stun:host:port` or `turn:host:port?transport=…` URLs.
    var urls: [String]
    /// The TURN username; `nil` for STUN.
    var username: String?
    /// The TURN password; `nil` for STUN.
    var credential: String?

    /// The STUN servers, which need no credentials: what every member's `welcome` carries.
    static func stun(in configuration: ServerConfiguration) -> [ICEServer] {
        let stun = configuration.iceServers.filter { !ServerConfiguration.isTURN($0) }
        return stun.isEmpty ? [] : [ICEServer(urls: stun)]
    }

    /// Whether the server hands out TURN credentials: it has TURN URLs and a secret to sign with.
    static func offersTURN(in configuration: ServerConfiguration) -> Bool {
        configuration.turnSecret != nil && configuration.iceServers.contains(where: ServerConfiguration.isTURN)
    }

    /// The STUN servers and the TURN servers with credentials for member `memberID`, as of `now`,
    /// and when those expire (Unix seconds); `nil` when the server offers no TURN.
    static func withTURN(
        for memberID: String, in configuration: ServerConfiguration, now: Date = Date()
    ) -> (servers: [ICEServer], expires: Int)? {
        let turn = configuration.iceServers.filter(ServerConfiguration.isTURN)
        // A clock or lifetime no Int holds (never in practice) gives no TURN rather than a trap.
        guard !turn.isEmpty, let secret = configuration.turnSecret,
            let expiry = Int(exactly: (now.timeIntervalSince1970 + configuration.turnCredentialLifetime).rounded(.down))
        else { return nil }
        let username = "\(expiry):\(memberID)"
        let servers =
            stun(in: configuration) + [
                ICEServer(urls: turn, username: username, credential: credential(username, secret: secret))
            ]
        return (servers, expiry)
    }

    /// coturn's REST credential: Base64 of HMAC-SHA1(secret, username).
    static func credential(_ username: String, secret: String) -> String {
        let code = HMAC<Insecure.SHA1>.authenticationCode(
            for: Array(username.utf8), using: SymmetricKey(data: Array(secret.utf8)))
        return Data(code).base64EncodedString()
    }
}
