import ARVisSpec
import ARVisSpecYAML
import ARVisStore
import ARVisSupport
import ARVisWire
import Foundation
import HTTPTypes
import Hummingbird

/// The routes whose bodies are specs, byte for byte: `GET`/`PUT /api/v1/projects/{project}/specs/{name}`
/// and `GET …/versions/{version}`.
///
/// They are documented in `openapi.yaml` with the rest, but served here rather than through the
/// generated layer, which would decode and re-encode the JSON: key order, trailing commas, YAML and
/// the line numbers that diagnostics point at would not survive.
struct SpecRoutes: Sendable {
    let services: ServerServices

    func register(on router: some RouterMethods<ServerContext>) {
        let spec = "/api/v1/projects/{project}/specs/{name}"
        router.get(RouterPath(spec)) { request, context in try await self.get(request, context) }
        router.put(RouterPath(spec)) { request, context in try await self.put(request, context) }
        router.get(RouterPath(spec + "/versions/{version}")) { request, context in
            try await self.getVersion(request, context)
        }
    }

    private func get(_ request: Request, _ context: ServerContext) async throws -> Response {
        let access = try await services.access(context)
        let version = try await services.spec(try context.parameters.require("name"), in: access)
        return try Self.response(
            version, request: request, asJSON: Self.prefersJSON(request.headers[.accept], stored: version))
    }

    private func getVersion(_ request: Request, _ context: ServerContext) async throws -> Response {
        let access = try await services.access(context)
        guard let number = context.parameters.get("version", as: Int.self), number >= 1 else {
            throw APIError.badRequest("a version is a whole number from 1")
        }
        let version = try await services.spec(try context.parameters.require("name"), in: access, version: number)
        return try Self.response(
            version, request: request, asJSON: Self.prefersJSON(request.headers[.accept], stored: version))
    }

    private func put(_ request: Request, _ context: ServerContext) async throws -> Response {
        let access = try await services.access(context, needs: .editor)
        let name = try context.parameters.require("name")
        guard ItemName.isValid(name) else {
            throw APIError.badRequest(
                "a spec name is 1 to 100 letters, digits, '_' or '-', starting with a letter or digit")
        }
        let limit = services.configuration.maximumSpecBytes
        let body = try await request.bodyBytes(upTo: limit, orThrow: Self.tooLarge(limit))
        guard let syntax = SpecSyntax(contentType: request.headers[.contentType], body: body) else {
            throw APIError(
                .unsupportedMediaType, .unsupportedMediaType, "send the spec as application/json or application/yaml")
        }
        let saved = try await services.saveSpec(
            body, syntax: syntax, name: name, in: access,
            ifMatch: request.headers[.ifMatch], ifNoneMatch: request.headers[.ifNoneMatch])
        struct SavedAnswer: Encodable {
            var diagnostics: [Diagnostic]
            var etag: String
            var version: Int
        }
        let json = JSONText.text(
            SavedAnswer(diagnostics: saved.warnings, etag: saved.version.etag, version: saved.version.version))
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        headers[.eTag] = saved.version.etag
        headers[.location] = "/api/v1/projects/\(access.project.slug)/specs/\(name)/versions/\(saved.version.version)"
        return Response(
            status: saved.version.version == 1 ? .created : .ok, headers: headers,
            body: .init(byteBuffer: ByteBuffer(string: json)))
    }

    static func tooLarge(_ limit: Int) -> APIError {
        APIError(.contentTooLarge, .tooLarge, "a spec is at most \(limit / 1_000_000) MB (arvis serve --max-spec-mb)")
    }

    /// Whether to answer JSON: unless `Accept` prefers YAML, a spec stored as YAML is converted.
    static func prefersJSON(_ accept: String?, stored: SpecVersion) -> Bool {
        guard let accept = accept?.lowercased(), accept.contains("yaml") else { return true }
        return accept.contains("json") && SpecSyntax(storedMediaType: stored.mediaType) == .json
    }

    /// A spec version as a response: its bytes (JSON is also valid YAML, so a JSON spec is served
    /// as stored either way; a YAML spec asked for as JSON is converted), `ETag`, `304` on a match.
    static func response(_ version: SpecVersion, request: Request, asJSON: Bool) throws -> Response {
        var headers: HTTPFields = [.eTag: version.etag, .cacheControl: "no-cache"]
        if let name = HTTPField.Name.arvisVersion {
            headers.append(HTTPField(name: name, value: String(version.version)))
        }
        if EntityTagList.names(version.tag, inIfNoneMatch: request.headers[.ifNoneMatch]) {
            return Response(status: .notModified, headers: headers)
        }
        let stored = SpecSyntax(storedMediaType: version.mediaType)
        headers.append(
            HTTPField(name: .contentType, value: (asJSON ? SpecSyntax.json : .yaml).mediaType + "; charset=utf-8"))
        SecurityHeaders.append(to: &headers)
        let bytes = asJSON && stored == .yaml ? try convertedToJSON(version) : version.body ?? []
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// A stored YAML spec as JSON.
    static func convertedToJSON(_ version: SpecVersion) throws -> [UInt8] {
        Array(SpecWriter.json(try version.document()).utf8)
    }
}

extension HTTPField.Name {
    /// `ARVis-Version`: the number of the spec version served.
    static let arvisVersion = HTTPField.Name("ARVis-Version")
}

extension Request {
    /// The whole body, refused with `tooLarge` as soon as it is known to exceed `limit` bytes (from
    /// `Content-Length`, or while it arrives).
    func bodyBytes(upTo limit: Int, orThrow tooLarge: @autoclosure () -> APIError) async throws -> [UInt8] {
        if let length = headers[.contentLength].flatMap(Int.init), length > limit { throw tooLarge() }
        do { return [UInt8](buffer: try await body.collect(upTo: limit)) } catch { throw tooLarge() }
    }
}
