import ARVisModel
import ARVisPipeline
import ARVisSupport
import ARVisWire
import Hummingbird

/// A model made for one request (a project's trees or bubbles as they stand) as a file response:
/// written by `write`, with an `ETag` of its bytes, `304` when the client has them.
enum ModelFileResponse {
    /// The response; `what` names the model in the error when it cannot be written.
    /// - Throws: ``APIError`` `500 exportFailed` when the writer fails.
    static func response(
        _ model: Model, what: String, mediaType: String, request: Request,
        write: (Model) throws(ModelError) -> [UInt8]
    ) throws(APIError) -> Response {
        let bytes: [UInt8]
        do { bytes = try write(model) } catch {
            throw APIError(.internalServerError, .exportFailed, "\(what) could not be written: \(error.message)")
        }
        return HubRoutes.response(
            Output(bytes: bytes, mediaType: mediaType),
            etag: EntityTag(joining: [String(Digest.sha256Hex(bytes).prefix(32))]), request: request)
    }
}
