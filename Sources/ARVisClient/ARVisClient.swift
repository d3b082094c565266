import ARVisSpec
public import Foundation
import HTTPTypes
public import OpenAPIRuntime
import OpenAPIURLSession

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// A client of an ARVis server, generated from the same `openapi.yaml` the server implements.
///
/// ```swift
/// let client = ARVisClient.make(server: URL(string: "https://arvis.example")!, token: token)
/// let projects = try await client.listProjects().ok.body.json.projects
/// ```
public enum ARVisClient {
    /// A client of `server` over URLSession, sending `token` as its bearer token when given.
    public static func make(server: URL, token: String? = nil, session: URLSession = .shared) -> Client {
        make(server: server, token: token, transport: URLSessionTransport(configuration: .init(session: session)))
    }

    /// A client of `server` over `transport` (a test's in-process one, say), with the same middleware.
    public static func make(server: URL, token: String? = nil, transport: any ClientTransport) -> Client {
        Client(
            serverURL: server, configuration: Configuration(dateTranscoder: ServerDates()), transport: transport,
            middlewares: [BearerMiddleware(token: token), SpecBodyMiddleware()])
    }
}

/// The server's dates: RFC 3339, with fractional seconds where they matter (a dataset row's `at`)
/// and without elsewhere; both read, dates sent without.
struct ServerDates: DateTranscoder {
    func encode(_ date: Date) throws -> String {
        date.formatted(Date.ISO8601FormatStyle())
    }

    func decode(_ text: String) throws -> Date {
        if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text) { return date }
        return try Date.ISO8601FormatStyle().parse(text)
    }
}

/// Sends `Authorization: Bearer <token>` with every request.
struct BearerMiddleware: ClientMiddleware {
    let token: String?

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        if let token { request.headerFields[.authorization] = "Bearer \(token)" }
        return try await next(request, body, baseURL)
    }
}

/// Spec bodies travel byte for byte: a spec is given to `putSpec` as `.applicationYaml(bytes)`
/// whatever its syntax (JSON is YAML too), and this labels a body that is JSON as
/// `application/json`, so the server keeps it as JSON with its formatting, key order and line numbers.
struct SpecBodyMiddleware: ClientMiddleware {
    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard operationID == "putSpec", let body else { return try await next(request, body, baseURL) }
        let bytes = try await [UInt8](collecting: body, upTo: 100_000_000)
        var request = request
        if !bytes.isEmpty, SpecReader.looksLikeJSON(bytes) { request.headerFields[.contentType] = "application/json" }
        return try await next(request, HTTPBody(bytes), baseURL)
    }
}
