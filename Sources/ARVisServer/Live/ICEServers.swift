import Crypto
import Foundation

/// The STUN and TURN servers a room member's browser is given for video
/// (`RTCConfiguration.iceServers`), with TURN credentials in coturn's shared-secret REST scheme:
/// the username is the expiry (Unix seconds) and the member's id, `EXPIRY:ID`, and the credential
/// the Base64 HMAC-SHA1 of that username under the secret. The TURN server checks both without
/// asking this server, and refuses them once the expiry has passed.
struct ICEServer: Encodable, Equatable, Sendable {
    /// `stun:host:port` or `turn:host:port?transport=…` URLs.
    var urls: [String]
    /// The TURN username; `nil` for STUN.
    var username: String?
    /// The TURN password; `nil` for STUN.
    var credential: String?

    /// The servers for member `memberID`, as of `now`: one entry for the STUN URLs, one with
    /// credentials for the TURN URLs (when there is a secret to sign them with).
    static func servers(for memberID: String, in configuration: ServerConfiguration, now: Date = Date()) -> [ICEServer]
    {
        var servers: [ICEServer] = []
        let stun = configuration.iceServers.filter { !ServerConfiguration.isTURN($0) }
        if !stun.isEmpty { servers.append(ICEServer(urls: stun)) }
        let turn = configuration.iceServers.filter(ServerConfiguration.isTURN)
        // A clock or lifetime no Int holds (never in practice) gives no TURN rather than a trap.
        if !turn.isEmpty, let secret = configuration.turnSecret,
            let expiry = Int(exactly: (now.timeIntervalSince1970 + configuration.turnCredentialLifetime).rounded(.down))
        {
            let username = "\(expiry):\(memberID)"
            servers.append(ICEServer(urls: turn, username: username, credential: credential(username, secret: secret)))
        }
        return servers
    }

    /// coturn's REST credential: Base64 of HMAC-SHA1(secret, username).
    static func credential(_ username: String, secret: String) -> String {
        let code = HMAC<Insecure.SHA1>.authenticationCode(
            for: Array(username.utf8), using: SymmetricKey(data: Array(secret.utf8)))
        return Data(code).base64EncodedString()
    }
}
