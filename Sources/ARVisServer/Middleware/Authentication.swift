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
/// ``ARVisAPI/access(_:needs:includingTrashed:token:)`` and the other checks read by default.
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

/// Answers errors the generated layer throws in the one error shape: a body that does not decode is
/// `400` (with what was wrong), anything else `500` without internals.
struct ErrorShapeMiddleware: ServerMiddleware {
    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        do {
            return try await next(request, body, metadata)
        } catch let error as ServerError {
            if let refusal = APIError(error.underlyingError) {
                var response = HTTPResponse(status: refusal.status)
                response.headerFields = refusal.headerFields
                return (response, HTTPBody(refusal.body))
            }
            if error.underlyingError is DecodingError {
                return Self.response(
                    .badRequest, "badRequest",
                    "the body is not what \(operationID) takes: \(Self.describe(error.underlyingError))")
            }
            return Self.response(.internalServerError, "internal", "the server failed; the request was logged")
        }
    }

    static func response(_ status: HTTPResponse.Status, _ code: String, _ message: String) -> (HTTPResponse, HTTPBody?)
    {
        var response = HTTPResponse(status: status)
        response.headerFields[.contentType] = "application/json; charset=utf-8"
        return (response, HTTPBody(APIError.body(code, message)))
    }

    /// A decoding error in one line: what was expected where.
    static func describe(_ error: any Error) -> String {
        switch error as? DecodingError {
        case .keyNotFound(let key, _): "the key '\(key.stringValue)' is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            context.codingPath.isEmpty
                ? context.debugDescription
                : "\(context.codingPath.map(\.stringValue).joined(separator: ".")): \(context.debugDescription)"
        default: "it is not valid JSON"
        }
    }
}
