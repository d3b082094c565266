import Foundation
import HTTPTypes
import OpenAPIRuntime

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
                    .badRequest, .badRequest,
                    "the body is not what \(operationID) takes: \(Self.describe(error.underlyingError))")
            }
            return Self.response(.internalServerError, .internal, "the server failed; the request was logged")
        }
    }

    static func response(_ status: HTTPResponse.Status, _ code: APIError.Code, _ message: String) -> (
        HTTPResponse, HTTPBody?
    ) {
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
