import ARVisGraphics
import ARVisModel
import ARVisPipeline
import ARVisPlanting
import ARVisRender
import ARVisSpatial
import ARVisSpec
import ARVisStore
import ARVisSupport
import ARVisWire
import HTTPTypes
import Hummingbird

extension APIError {
    /// The one mapping of the modules' errors to answers: what the client's input caused is a `4xx`
    /// in the one error shape; what the server's own state caused (a database that fails, fonts that
    /// are missing) stays an error, a logged `500`.
    init?(_ error: any Error) {
        switch error {
        case let error as APIError: self = error
        case let error as StoreError:
            switch error.code {
            case .notFound: self = .notFound(error.message)
            case .conflict: self.init(.conflict, .conflict, error.message)
            case .preconditionFailed: self.init(.preconditionFailed, .preconditionFailed, error.message)
            case .invalid: self = .invalid(.invalid, error.message)
            case .unavailable:
                self.init(
                    .serviceUnavailable, .databaseUnavailable, "the database cannot be reached just now; try again")
                extraHeaders[.retryAfter] = "5"
            default: return nil
            }
        case let error as BlobStoreError:
            guard let answer = APIError(error) else { return nil }
            self = answer
        case let error as RowError:
            switch error.code {
            case .unsupportedMediaType: self.init(.unsupportedMediaType, .unsupportedMediaType, error.message)
            case .notUTF8: self = .invalid(.notUTF8, error.message)
            default: self = .invalid(.invalidRow, error.message)
            }
        case let error as SpecError: self = .invalid(.invalidSpec, error.description)
        case let error as RenderError: self = .invalid(.renderFailed, error.description)
        case let error as GraphicsError:
            switch error.code {
            case .fontMissing, .fontInvalid: return nil
            case .qrDataTooLong: self = .invalid(.qrFailed, error.description)
            default: self = .invalid(.renderFailed, error.description)
            }
        case let error as ExportError: self = .invalid(.exportFailed, error.description)
        case let error as ModelError: self = .invalid(.exportFailed, error.description)
        case let error as PlantingError: self = .invalid(.cannotPlan, error.description)
        case let error as SpatialError: self = .invalid(.invalidSpatialInput, error.description)
        case let error as PipelineError:
            guard error.code == .invalidInput || error.code == .limitExceeded else { return nil }
            self = .invalid(.invalid, error.description)
        default: return nil
        }
    }
}

extension APIError {
    /// What answers `error`: itself when it already is an answer (an ``APIError``, Hummingbird's
    /// own), else its mapping by ``init(_:)``; `nil` for the server's own failures (a logged `500`).
    static func refusal(for error: any Error) -> (any HTTPResponseError)? {
        (error as? any HTTPResponseError) ?? APIError(error)
    }
}

/// Answers the modules' errors thrown by the routes outside the generated API (the hub, spec,
/// preview and plan routes) as ``APIError/init(_:)`` maps them, as ``ErrorShapeMiddleware`` does for
/// the generated operations.
struct ModuleErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        do {
            return try await next(request, context)
        } catch {
            guard let refusal = APIError.refusal(for: error) else { throw error }
            throw refusal
        }
    }
}
