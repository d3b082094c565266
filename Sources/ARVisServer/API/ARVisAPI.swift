import ARVisGraphics
import ARVisSpec
import ARVisStore
import ARVisSupport
import Foundation
import HummingbirdBcrypt
import Logging
import OpenAPIRuntime

/// The handlers of the operations in `openapi.yaml` this server implements (the generator's filter
/// in `openapi-generator-config.yaml` lists them).
struct ARVisAPI: APIProtocol {
    /// How far from a project's origin a position may be, in metres, on each axis: trees,
    /// anchors, observations and annotations.
    static let worldRadius = 100_000.0

    /// What every operation works with.
    let services: ServerServices

    init(services: ServerServices) {
        self.services = services
    }

    var store: Store { services.store }
    var configuration: ServerConfiguration { services.configuration }
    var library: AssetLibrary { services.library }
    var grants: AssetGrants { services.grants }
    var drain: Drain { services.drain }

    /// The version `/health` reports.
    static let version = ARVisVersion.current

    // MARK: Operations

    func health(_ input: Operations.Health.Input) async throws -> Operations.Health.Output {
        guard await store.ping() else {
            return .serviceUnavailable(.init(body: .json(Self.error(.unavailable, "the database does not answer"))))
        }
        return .ok(
            .init(
                body: .json(
                    .init(status: .ok, version: Self.version, database: store.engine == .postgres ? .postgres : .sqlite)
                )))
    }

    func healthLive(_ input: Operations.HealthLive.Input) async throws -> Operations.HealthLive.Output {
        .ok(.init(body: .json(.init(status: .ok))))
    }

    func healthReady(_ input: Operations.HealthReady.Input) async throws -> Operations.HealthReady.Output {
        func unavailable(_ code: APIError.Code, _ message: String) -> Operations.HealthReady.Output {
            .serviceUnavailable(.init(body: .json(Self.error(code, message))))
        }
        if drain.isDraining { return unavailable(.draining, "this instance is stopping") }
        guard await store.ping() else { return unavailable(.unavailable, "the database does not answer") }
        do { try await library.blobs.checkReady() } catch {
            // The store's address and its error text are for the operator's log, not for anyone asking.
            library.logger.warning("health: the file store cannot be used: \(error)")
            return unavailable(.storageUnavailable, "the file store cannot be used")
        }
        return .ok(
            .init(
                body: .json(
                    .init(
                        status: .ok, version: Self.version, database: store.engine == .postgres ? .postgres : .sqlite,
                        blobStore: library.blobs is S3BlobStore ? .s3 : .folder))))
    }

    /// The items of a page of a list: `limit`, 1 to 10 000, else 1 000.
    static func pageLimit(_ limit: Int?) throws -> Int {
        guard let limit else { return 1_000 }
        guard (1...10_000).contains(limit) else { throw APIError.badRequest("limit is 1 to 10000") }
        return limit
    }

    static func error(_ code: APIError.Code, _ message: String) -> Components.Schemas._Error {
        .init(error: .init(code: .init(value1: .init(rawValue: code.name), value2: code.name), message: message))
    }

    /// The answer to a password outside 10–200 characters.
    static let weakPassword = Components.Responses.Unprocessable(
        body: .json(error(.weakPassword, "a password is 10 to 200 characters")))

    static func isAcceptablePassword(_ password: String) -> Bool { (10...200).contains(password.count) }
}
