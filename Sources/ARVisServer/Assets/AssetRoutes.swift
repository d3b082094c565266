import ARVisModel
import ARVisStore
import ARVisSupport
import ARVisWire
import Foundation
import HTTPTypes
import Hummingbird

/// The gallery's routes that carry files: uploads streamed to the blob store, model downloads with `ETag`
/// and byte ranges, thumbnails, the orbit viewer page and its script. Documented in `openapi.yaml`,
/// served here because their bodies are files, not JSON.
struct AssetRoutes: Sendable {
    let services: ServerServices

    static let base = "/api/v1/projects/{project}/assets"

    func register(on router: Router<ServerContext>) {
        router.post(RouterPath(Self.base)) { request, context in try await self.upload(request, context) }
        router.get(RouterPath(Self.base + "/{id}/model.{format}")) { request, context in
            try await self.model(request, context)
        }
        router.get(RouterPath(Self.base + "/{id}/thumbnail.png")) { request, context in
            try await self.thumbnail(request, context)
        }
        router.get("/a/{project}/{id}") { request, context in try await self.viewer(request, context) }
    }

    /// Read access to the asset a valid grant names (its project not in the trash); `nil` otherwise.
    private func granted(_ grant: String, _ context: ServerContext) async throws -> (ProjectAccess, Asset?)? {
        guard let id = context.parameters.get("id"),
            let project = try await services.store.project(slug: try context.parameters.require("project")),
            project.trashedAt == nil, try await services.grants.isValid(grant, projectID: project.id, assetID: id)
        else { return nil }
        let access = ProjectAccess(project: project, account: nil, role: nil)
        return (access, try await services.asset(id, in: access))
    }

    /// The model format an upload's `Content-Type` names; `nil` for none or `application/octet-stream`
    /// (the file's first bytes decide).
    /// - Throws: ``APIError`` `415` for any other type.
    static func declaredFormat(_ contentType: String?) throws -> ModelFormat? {
        guard let contentType, !ModelFormat.essence(ofMediaType: contentType).isEmpty else { return nil }
        if let format = ModelFormat(mediaType: contentType), format == .glb || format == .usdz { return format }
        guard ModelFormat.essence(ofMediaType: contentType) == "application/octet-stream" else {
            throw APIError(
                .unsupportedMediaType, .unsupportedMediaType,
                "send the file as model/gltf-binary, model/vnd.usdz+zip or application/octet-stream")
        }
        return nil
    }

    /// The SHA-256 (hex) and format an upload declares: a `sha-256` member of `Repr-Digest` (or of
    /// `Content-Digest`, the same for a body sent as it is; RFC 9530) and a model's Content-Type.
    /// `nil` unless both are there.
    /// - Throws: ``APIError`` `400` for a `sha-256` member that is not 32 bytes in Base64 between colons.
    static func declaredContent(_ headers: HTTPFields, format: ModelFormat?) throws -> (
        hash: String, format: ModelFormat
    )? {
        guard let format else { return nil }
        let names = [HTTPField.Name.reprDigest, .contentDigest].compactMap { $0 }
        guard let field = names.lazy.compactMap({ headers[$0] }).first else { return nil }
        switch DigestField(parsing: field) {
        case .absent: return nil
        case .sha256(let bytes): return (Digest.hex(bytes), format)
        case .malformed:
            throw APIError.badRequest(
                "Repr-Digest's sha-256 is the file's 32-byte SHA-256 in Base64 between colons: sha-256=:…=:")
        }
    }

    static func tooLarge(_ limit: Int) -> APIError {
        APIError(
            .contentTooLarge, .tooLarge, "a model is at most \(limit / 1_000_000) MB (arvis serve --max-asset-mb)")
    }

    /// The request's bearer token: the `Authorization` header, else — for a read — `access_token`
    /// (links a browser follows). A write (an upload) takes the header alone, so a token copied
    /// with a link cannot change anything.
    static func token(_ request: Request, _ context: ServerContext, forWrite: Bool) -> String? {
        context.token ?? (forWrite ? nil : request.uri.queryParameters.get("access_token"))
    }

    private func access(_ request: Request, _ context: ServerContext, needs: Role? = nil) async throws -> (
        ProjectAccess, Asset?
    ) {
        if needs == nil, let grant = request.uri.queryParameters.get("grant"),
            let granted = try await granted(grant, context)
        {
            return granted
        }
        let access = try await services.access(
            try context.parameters.require("project"), needs: needs,
            token: Self.token(request, context, forWrite: needs.map { $0 >= .editor } ?? false))
        guard let id = context.parameters.get("id") else { return (access, nil) }
        return (access, try await services.asset(id, in: access))
    }

    private func upload(_ request: Request, _ context: ServerContext) async throws -> Response {
        let (access, _) = try await self.access(request, context, needs: .editor)
        guard let rawName = request.uri.queryParameters.get("name") else {
            throw APIError.badRequest("name the asset: ?name=Chair")
        }
        let name = try ARVisAPI.assetName(rawName)
        let limit = services.configuration.maximumAssetBytes
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limit { throw Self.tooLarge(limit) }
        let format = try Self.declaredFormat(request.headers[.contentType])
        // What the quota leaves: an upload of known length past it is refused at once, one of
        // unknown length (chunked) as it arrives, with nothing stored.
        let quota = try await services.assetBytesLeft(projectID: access.project.id)
        if let length = request.headers[.contentLength].flatMap(Int.init), length > quota.left {
            throw quota.refusal(length)
        }
        let stored = try await services.library.receive(
            request.body, limit: limit, quota: quota,
            declared: try Self.declaredContent(request.headers, format: format))
        try await services.requireQuota(.assetBytes(stored.size), projectID: access.project.id)
        let asset = try await services.store.addAsset(
            projectID: access.project.id,
            Asset(
                name: name, format: stored.format.rawValue, contentHash: stored.hash, size: stored.size,
                uploaderID: access.account?.id))
        services.library.process(projectID: access.project.id, asset: asset)
        let body = try JSONText.data(try await services.schema(asset, in: access))
        var headers: HTTPFields = [
            .contentType: "application/json; charset=utf-8",
            .location: "/api/v1/projects/\(access.project.slug)/assets/\(asset.id)",
        ]
        SecurityHeaders.append(to: &headers)
        return Response(status: .created, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// The size of a file the library made or stored, or `409` while it is being made. A made file
    /// that went missing (a crash before it was stored) is made again.
    private func readyFile(_ key: String, of asset: Asset, in access: ProjectAccess) async throws -> Int {
        if let size = try await services.library.blobs.size(of: key) { return size }
        switch asset.status {
        case .failed:
            throw APIError(
                .conflict, .notReadable, "the model could not be read: \(asset.failure ?? "unknown reason")")
        case .ready:
            services.library.process(projectID: access.project.id, asset: asset)
            throw APIError(.conflict, .notReady, "the file is being made again; try again in a moment")
        case .processing:
            throw APIError(.conflict, .notReady, "the asset is still being processed; try again in a moment")
        }
    }

    private func model(_ request: Request, _ context: ServerContext) async throws -> Response {
        let (access, found) = try await access(request, context)
        guard let asset = found, let format = ModelFormat(rawValue: try context.parameters.require("format")),
            format == .glb || format == .usdz
        else {
            throw APIError.notFound("a model is model.glb or model.usdz")
        }
        let key = AssetLibrary.modelKey(asset.contentHash, format)
        let size = try await readyFile(key, of: asset, in: access)
        let safeName = String(
            asset.name.unicodeScalars.map {
                $0.isASCII
                    && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || " -_".unicodeScalars.contains($0))
                    ? Character($0) : "_"
            })
        let headers: HTTPFields = [
            .cacheControl: "no-cache", .acceptRanges: "bytes",
            .contentDisposition: "inline; filename=\"\(safeName).\(format.rawValue)\"",
        ]
        return try await file(
            key, size: size, mediaType: format.mediaType,
            tag: EntityTag(joining: [String(asset.contentHash.prefix(32)), format.rawValue]), headers: headers,
            request: request, context: context)
    }

    private func thumbnail(_ request: Request, _ context: ServerContext) async throws -> Response {
        let (access, found) = try await access(request, context)
        guard let asset = found else { throw APIError.notFound("no asset") }
        let sizeText = request.uri.queryParameters.get("size") ?? "360"
        guard let size = Int(sizeText), AssetLibrary.thumbnailSizes.contains(size) else {
            throw APIError.badRequest("a thumbnail is 360 or 1024 pixels: ?size=360")
        }
        let key = AssetLibrary.thumbnailKey(asset.contentHash, size: size)
        let length = try await readyFile(key, of: asset, in: access)
        return try await file(
            key, size: length, mediaType: "image/png",
            tag: EntityTag(joining: [String(asset.contentHash.prefix(32)), "\(size)"]),
            headers: [.cacheControl: "no-cache"],
            request: request, context: context)
    }

    /// A file as a response, tagged `tag`: `304` when the client holds it, `206` for one satisfiable
    /// byte range, `416` for one outside the file, else the whole file; streamed from the blob store.
    private func file(
        _ key: String, size: Int, mediaType: String, tag: EntityTag, headers: HTTPFields, request: Request,
        context: ServerContext
    ) async throws -> Response {
        var headers = headers
        headers[.eTag] = tag.field
        if EntityTagList.names(tag, inIfNoneMatch: request.headers[.ifNoneMatch]) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = mediaType
        SecurityHeaders.append(to: &headers)
        let blobs = services.library.blobs
        guard let rangeHeader = request.headers[.range] else {
            let body = try await blobs.body(key, range: nil, length: size, context: context)
            return Response(status: .ok, headers: headers, body: body)
        }
        guard let range = ByteRange.parse(rangeHeader, size: size) else {
            let error = APIError(
                .rangeNotSatisfiable, .rangeNotSatisfiable,
                "the range \(rangeHeader.prefix(100)) is not one range inside the \(size)-byte file")
            var response = try error.response(from: request, context: context)
            response.headers[.contentRange] = "bytes */\(size)"
            return response
        }
        headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound)/\(size)"
        return Response(
            status: .partialContent, headers: headers,
            body: try await blobs.body(key, range: range, length: size, context: context))
    }

    private func viewer(_ request: Request, _ context: ServerContext) async throws -> Response {
        let (access, found) = try await self.access(request, context)
        guard let asset = found else { throw APIError.notFound("no asset") }
        // Anyone may read a public or unlisted project's files; a private one's links carry a grant.
        let grant =
            access.project.visibility == .private
            ? try await services.grants.grant(projectID: access.project.id, assetID: asset.id) : nil
        let page = AssetViewerPage(
            asset: asset, project: access.project,
            base: HubLinks.baseURL(of: request, configuration: services.configuration),
            grant: grant)
        var headers: HTTPFields = [.contentType: "text/html; charset=utf-8", .cacheControl: "no-cache"]
        SecurityHeaders.append(to: &headers, policy: AssetViewerPage.policy)
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: page.html)))
    }
}

/// One HTTP byte range, `bytes=first-last`, `bytes=first-` or `bytes=-suffix` (RFC 9110 §14.1.2);
/// several ranges in one request are not served (`nil`, like a range outside the file).
enum ByteRange {
    static func parse(_ header: String, size: Int) -> ClosedRange<Int>? {
        let text = header.trimmingCharacters(in: .whitespaces)
        guard text.lowercased().hasPrefix("bytes="), size > 0 else { return nil }
        let spec = text.dropFirst(6).trimmingCharacters(in: .whitespaces)
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return nil }
        let first = spec[..<dash].trimmingCharacters(in: .whitespaces)
        let last = spec[spec.index(after: dash)...].trimmingCharacters(in: .whitespaces)
        if first.isEmpty {
            guard let suffix = Int(last), suffix > 0 else { return nil }
            return max(0, size - suffix)...(size - 1)
        }
        guard let start = Int(first), start >= 0, start < size else { return nil }
        if last.isEmpty { return start...(size - 1) }
        guard let end = Int(last), end >= start else { return nil }
        return start...min(end, size - 1)
    }
}

extension HTTPField.Name {
    /// `Repr-Digest` (RFC 9530): the digest of the file an upload carries.
    static let reprDigest = HTTPField.Name("Repr-Digest")
    /// `Content-Digest` (RFC 9530): the digest of the body as sent.
    static let contentDigest = HTTPField.Name("Content-Digest")
}
