import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Caps the request bodies of the generated operations (the generated layer would collect any
/// size): an anchor 16 KB, an area as much as a spec, anything else 64 KB. A larger body is `413`
/// before it is decoded, and a body that is not JSON for an operation that takes one is `415`.
struct BodyLimitMiddleware: ServerMiddleware {
    let configuration: ServerConfiguration

    /// The largest body `operationID` takes.
    func limit(for operationID: String) -> Int {
        switch operationID {
        case "createAnchor": configuration.maximumAnchorBytes
        case "createArea": configuration.maximumSpecBytes
        default: 65_536
        }
    }

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard let body else { return try await next(request, nil, metadata) }
        if APIDocument.shared.bodyOperations.contains(operationID), !Self.isJSON(request.headerFields[.contentType]) {
            throw APIError(
                .unsupportedMediaType, .unsupportedMediaType,
                "\(operationID) takes a JSON body: send Content-Type: application/json")
        }
        let limit = limit(for: operationID)
        let tooLarge = APIError(.contentTooLarge, .tooLarge, "this request's body is at most \(limit) bytes")
        if case .known(let length) = body.length, length > limit { throw tooLarge }
        let data: Data
        do { data = try await Data(collecting: body, upTo: limit) } catch { throw tooLarge }
        return try await next(request, HTTPBody(data), metadata)
    }

    /// Whether a `Content-Type` names JSON (`application/json` or a `+json` type, any parameters).
    static func isJSON(_ contentType: String?) -> Bool {
        guard let type = contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        else { return false }
        return type == "application/json" || type.hasSuffix("+json")
    }
}
