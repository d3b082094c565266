import ARVisStore
import Foundation
import HTTPTypes
import Hummingbird

/// A refusal with its status, in the one error shape `{"error": {"code", "message"}}`.
///
/// Handlers throw it; ``ErrorShapeMiddleware`` (generated operations) and Hummingbird (the raw spec
/// and hub routes) turn it into the response.
struct APIError: Error, HTTPResponseError {
    /// The response's status.
    var status: HTTPResponse.Status
    /// A stable, machine-readable reason, such as `notFound`.
    var code: String
    /// One sentence a person can act on.
    var message: String
    /// A JSON array of diagnostics, for a spec that does not validate.
    var diagnosticsJSON: String?
    /// Headers the answer needs besides the content type, such as `Allow` on `405`.
    var extraHeaders = HTTPFields()

    init(_ status: HTTPResponse.Status, _ code: String, _ message: String, diagnosticsJSON: String? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.diagnosticsJSON = diagnosticsJSON
    }

    static let signInFirst = APIError(.unauthorized, "unauthorized", "sign in first: send Authorization: Bearer <token> from POST /api/v1/sessions")
    static let tokenNotValid = APIError(.unauthorized, "unauthorized", "the bearer token is not valid (signed out, expired or revoked): sign in again")

    static func notFound(_ message: String) -> APIError { APIError(.notFound, "notFound", message) }
    static func forbidden(_ message: String) -> APIError { APIError(.forbidden, "forbidden", message) }
    static func invalid(_ code: String, _ message: String) -> APIError { APIError(.unprocessableContent, code, message) }
    static func badRequest(_ message: String) -> APIError { APIError(.badRequest, "badRequest", message) }

    /// The store's refusals as answers; a database failure stays an error (a `500`).
    init?(_ error: StoreError) {
        switch error.code {
        case .notFound: self = .notFound(error.message)
        case .conflict: self.init(.conflict, "conflict", error.message)
        case .preconditionFailed: self.init(.preconditionFailed, "preconditionFailed", error.message)
        case .invalid: self = .invalid("invalid", error.message)
        default: return nil
        }
    }

    /// The JSON body.
    var body: Data {
        let object = ["error": ["code": code, "message": message]]
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        guard let diagnosticsJSON else { return data }
        return Data("{\"diagnostics\":\(diagnosticsJSON),".utf8) + data.dropFirst()
    }

    /// The headers besides the content type: a challenge on `401`.
    var headerFields: HTTPFields {
        var fields = extraHeaders
        fields[.contentType] = "application/json; charset=utf-8"
        if status == .unauthorized { fields[.wwwAuthenticate] = "Bearer" }
        return fields
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        Response(status: status, headers: headerFields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }
}

/// Rethrows a store error the client caused as an ``APIError``.
func answering<T>(_ work: () async throws(StoreError) -> T) async throws -> T {
    do {
        return try await work()
    } catch {
        guard let refusal = APIError(error) else { throw error }
        throw refusal
    }
}
