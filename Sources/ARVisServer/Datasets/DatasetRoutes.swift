import ARVisSpec
import ARVisStore
import ARVisSupport
import ARVisWire
import Foundation
import HTTPTypes
import Hummingbird

/// `POST` and `GET /api/v1/projects/{project}/datasets/{dataset}/rows`: rows go in as JSON lines,
/// JSON or CSV, are kept as compact JSON objects, and come out byte for byte as the live streams
/// send them.
struct DatasetRoutes: Sendable {
    let services: ServerServices

    /// The largest body of one append.
    static let maximumBodyBytes = 1_000_000
    /// The most rows of one append.
    static let maximumRows = 10_000
    /// The most bytes of rows one answer, or one window a chart follows, carries: past it the
    /// oldest rows asked for are left out (an answer says `"more": true`; `before=` reads on).
    static let windowBytes = 4_000_000

    func register(on router: Router<ServerContext>) {
        let rows = "/api/v1/projects/{project}/datasets/{dataset}/rows"
        router.post(RouterPath(rows)) { request, context in try await self.append(request, context) }
        router.get(RouterPath(rows)) { request, context in try await self.list(request, context) }
    }

    private func dataset(_ context: ServerContext) throws -> String {
        let name = try context.parameters.require("dataset")
        guard ItemName.isValid(name) else {
            throw APIError.badRequest(
                "a dataset name is 1 to 100 letters, digits, '_' or '-', starting with a letter or digit")
        }
        return name
    }

    private func append(_ request: Request, _ context: ServerContext) async throws -> Response {
        let access = try await services.access(context, needs: .editor)
        let name = try dataset(context)
        let bytes = try await request.bodyBytes(
            upTo: Self.maximumBodyBytes,
            orThrow: APIError(
                .contentTooLarge, .tooLarge,
                "an append is at most \(Self.maximumBodyBytes / 1_000_000) MB; send more requests"))
        let rows = try DatasetRows.read(bytes, contentType: request.headers[.contentType])
        guard !rows.isEmpty else { throw APIError.invalid(.noRows, "the body holds no rows") }
        guard rows.count <= Self.maximumRows else {
            throw APIError(.contentTooLarge, .tooLarge, "an append is at most \(Self.maximumRows) rows")
        }
        try await services.requireQuota(
            .rows(rows.count), .rowBytes(rows.reduce(0) { $0 + $1.utf8.count }), projectID: access.project.id)
        let stored = try await services.store.appendRows(projectID: access.project.id, dataset: name, rows)
        let body = try JSONText.data(
            Appended(appended: stored.count, first: stored.first?.sequence ?? 0, last: stored.last?.sequence ?? 0))
        return Response(
            status: .created, headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// The answer to an append: how many rows, and the first and last sequence numbers they got.
    private struct Appended: Encodable {
        var appended: Int
        var first: Int64
        var last: Int64
    }

    private func list(_ request: Request, _ context: ServerContext) async throws -> Response {
        let access = try await services.access(context)
        let name = try dataset(context)
        let query = request.uri.queryParameters
        func number<T: LosslessStringConvertible>(_ key: String, _ type: T.Type) throws -> T? {
            guard let text = query[Substring(key)] else { return nil }
            guard let value = T(String(text)) else { throw APIError.badRequest("\(key) is a number") }
            return value
        }
        let last = try number("last", Int.self) ?? DatasetLink.defaultRows
        let seconds = try number("seconds", Double.self)
        let after = try number("after", Int64.self) ?? 0
        let before = try number("before", Int64.self) ?? .max
        guard (1...DatasetLink.largestRows).contains(last), after >= 0, before >= 1,
            seconds.map({ $0.isFinite && $0 > 0 && $0 <= 31_536_000 }) ?? true
        else {
            throw APIError.badRequest(
                "last is 1 to \(DatasetLink.largestRows), seconds more than 0 and at most a year, after 0 or more, before 1 or more"
            )
        }
        let window = try await services.store.rowWindow(
            projectID: access.project.id, dataset: name, last: last,
            since: seconds.map { Date().addingTimeInterval(-$0) }, after: after, through: before - 1,
            maximumBytes: Self.windowBytes)
        let body = LiveMessages.rowList(window.rows, more: window.truncated)
        return Response(
            status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: body)))
    }
}
