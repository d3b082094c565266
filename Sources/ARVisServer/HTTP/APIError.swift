import ARVisSpec
import ARVisStore
import ARVisSupport
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
    /// A stable, machine-readable reason, such as ``Code/notFound``.
    var code: Code
    /// One sentence a person can act on.
    var message: String
    /// The diagnostics of a spec that does not validate.
    var diagnostics: [Diagnostic]?
    /// More about the refusal, by code (`error.details`).
    var details: Details?
    /// Headers the answer needs besides the content type, such as `Allow` on `405`.
    var extraHeaders = HTTPFields()

    init(_ status: HTTPResponse.Status, _ code: Code, _ message: String, diagnostics: [Diagnostic]? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.diagnostics = diagnostics
    }

    static let signInFirst = APIError(
        .unauthorized, .unauthorized, "sign in first: send Authorization: Bearer <token> from POST /api/v1/sessions")
    static let tokenNotValid = APIError(
        .unauthorized, .unauthorized, "the bearer token is not valid (signed out, expired or revoked): sign in again")

    static func notFound(_ message: String) -> APIError { APIError(.notFound, .notFound, message) }

    /// `value`, or ``notFound(_:)`` saying `missing` when there is none (a read of one thing by name).
    static func found<Value>(_ value: Value?, else missing: @autoclosure () -> String) throws(APIError) -> Value {
        guard let value else { throw notFound(missing()) }
        return value
    }

    /// Nothing when `done`; ``notFound(_:)`` saying `missing` when what a change names was not there.
    static func found(_ done: Bool, else missing: @autoclosure () -> String) throws(APIError) {
        guard done else { throw notFound(missing()) }
    }
    static func forbidden(_ message: String) -> APIError { APIError(.forbidden, .forbidden, message) }
    static func invalid(_ code: Code, _ message: String) -> APIError {
        APIError(.unprocessableContent, code, message)
    }
    static func badRequest(_ message: String) -> APIError { APIError(.badRequest, .badRequest, message) }

    /// More about a refusal: the trees in the way of a tap group (`noSpace`).
    struct Details: Encodable, Sendable {
        /// The trees in the way, where they stand.
        var trees: [Components.Schemas.Tree]
    }

    /// The JSON body.
    var body: Data { Self.body(code, message, diagnostics: diagnostics, details: details) }

    /// The one error shape: `{"diagnostics": [...], "error": {"code", "message", "details"?}}`,
    /// diagnostics only for a spec that does not validate.
    static func body(_ code: Code, _ message: String, diagnostics: [Diagnostic]? = nil, details: Details? = nil)
        -> Data
    {
        // Strings, numbers and arrays of them always encode.
        (try? JSONText.data(
            Shape(diagnostics: diagnostics, error: .init(code: code, message: message, details: details)))) ?? Data()
    }

    /// The body's shape.
    private struct Shape: Encodable {
        struct Reason: Encodable {
            var code: Code
            var message: String
            var details: Details?
        }

        var diagnostics: [Diagnostic]?
        var error: Reason
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
        guard let refusal = APIError(error as any Error) else { throw error }
        throw refusal
    }
}
