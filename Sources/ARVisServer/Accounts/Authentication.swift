import ARVisGraphics
import ARVisSpec
import ARVisStore
import ARVisSupport
import Foundation
import HTTPTypes
import Hummingbird
import OpenAPIRuntime

/// The bearer token of the request being handled, set by ``ServerResponder`` (the one place a
/// request's `Authorization: Bearer <token>` is read, for every handler of the request): what
/// the generated operations read (``ARVisAPI/access(_:needs:includingTrashed:)``); the hand routes
/// read ``ServerContext/token``.
enum RequestToken {
    @TaskLocal static var current: String?
}

/// Session tokens: 32 random bytes, base64url; only their SHA-256 is stored.
enum SessionToken {
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(
            of: "/", with: "_"
        )
        .replacingOccurrences(of: "=", with: "")
    }

    /// The token of an `Authorization: Bearer <token>` header, or `nil`.
    static func bearer(_ header: String?) -> String? {
        guard let header, header.count > 7, header.prefix(7).lowercased() == "bearer " else { return nil }
        let token = header.dropFirst(7).trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }

    static func hash(_ token: String) -> String {
        Digest.sha256Hex(Array(token.utf8))
    }
}

/// Failed sign-ins per account name, so guessing passwords is slow: past the limit within the
/// window, sign-in answers `429` with the seconds to wait.
actor SignInLimiter {
    private let limit: Int
    private let window: TimeInterval
    private var failures: [String: [Date]] = [:]

    init(limit: Int, window: TimeInterval) {
        self.limit = limit
        self.window = window
    }

    /// Seconds to wait before `key` may try again, or `nil` when it may try now.
    func retryAfter(_ key: String, now: Date = Date()) -> Int? {
        let recent = (failures[key] ?? []).filter { now.timeIntervalSince($0) < window }
        failures[key] = recent.isEmpty ? nil : recent
        guard recent.count >= limit, let oldest = recent.first else { return nil }
        return max(1, Int(saturating: (window - now.timeIntervalSince(oldest)).rounded(.up)))
    }

    func recordFailure(_ key: String, now: Date = Date()) {
        failures[key, default: []].append(now)
        if failures.count > 100_000 { failures.removeAll() }  // bounded memory under a flood of names
    }

    func recordSuccess(_ key: String) {
        failures[key] = nil
    }
}
