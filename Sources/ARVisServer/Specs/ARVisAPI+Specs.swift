import ARVisGraphics
import ARVisSpec
import ARVisSpecYAML
import ARVisStore
import ARVisSupport
import ARVisWire
import Foundation
import HTTPTypes
import OpenAPIRuntime

extension ARVisAPI {
    static func schema(_ version: SpecVersion) -> Components.Schemas.SpecVersion {
        .init(version: version.version, etag: version.etag, author: version.author ?? "", createdAt: version.createdAt)
    }

    func listSpecs(_ input: Operations.ListSpecs.Input) async throws -> Operations.ListSpecs.Output {
        let access = try await access(input.path.project)
        let specs = try await store.specs(projectID: access.project.id)
        return .ok(
            .init(
                body: .json(
                    .init(
                        specs: specs.map {
                            .init(name: $0.name, version: $0.version, etag: $0.etag, updatedAt: $0.createdAt)
                        }))))
    }

    func listSpecVersions(_ input: Operations.ListSpecVersions.Input) async throws -> Operations.ListSpecVersions.Output
    {
        let access = try await access(input.path.project)
        let versions =
            ItemName.isValid(input.path.name)
            ? try await store.versions(projectID: access.project.id, name: input.path.name) : []
        guard !versions.isEmpty else {
            throw APIError.notFound("no spec '\(input.path.name)' in '\(access.project.slug)'")
        }
        return .ok(.init(body: .json(.init(versions: versions.map(Self.schema)))))
    }

    func restoreSpecVersion(_ input: Operations.RestoreSpecVersion.Input) async throws
        -> Operations.RestoreSpecVersion.Output
    {
        let access = try await access(input.path.project, needs: .editor)
        let old = try await services.spec(input.path.name, in: access, version: input.path.version)
        let saved = try await services.saveSpec(
            old.body ?? [], syntax: SpecSyntax(storedMediaType: old.mediaType), name: old.name, in: access, ifMatch: nil
        )
        return .created(
            .init(
                headers: .init(eTag: saved.version.etag),
                body: .json(.init(version: saved.version.version, etag: saved.version.etag))))
    }

    func deleteSpec(_ input: Operations.DeleteSpec.Input) async throws -> Operations.DeleteSpec.Output {
        let access = try await access(input.path.project, needs: .editor)
        guard ItemName.isValid(input.path.name),
            try await store.deleteSpec(projectID: access.project.id, name: input.path.name)
        else {
            throw APIError.notFound("no spec '\(input.path.name)' in '\(access.project.slug)'")
        }
        return .noContent(.init())
    }
}

extension ServerServices {
    /// The result of saving: the new version and the warnings the validator had.
    struct Saved: Sendable {
        var version: SpecVersion
        var warnings: [Diagnostic]
    }

    /// Validates `body` and saves it as the newest version of `name`.
    /// - Parameter ifMatch: the request's `If-Match` (`*`: the spec must exist); `ifNoneMatch` `*`:
    ///   it must not.
    /// - Throws: ``APIError`` `422` with the diagnostics of `arvis validate --format json` when the
    ///   spec has errors, `412` when it changed since `ifMatch`.
    func saveSpec(
        _ body: [UInt8], syntax: SpecSyntax, name: String, in access: ProjectAccess,
        ifMatch: String?, ifNoneMatch: String? = nil
    ) async throws -> Saved {
        let (diagnostics, hash) = try await specChecks.run(client: RequestAddress.current) {
            (syntax.read(Data(body), file: name).diagnostics.sortedByPosition, Digest.sha256Hex(body))
        }
        if diagnostics.containsErrors {
            let errors = diagnostics.filter { $0.severity == .error }.count
            throw APIError(
                .unprocessableContent, .invalidSpec,
                "the spec has \(errors) error\(errors == 1 ? "" : "s"); nothing was saved",
                diagnostics: diagnostics)
        }
        var expected: (number: Int, hashPrefix: String)?
        if let ifMatch {
            expected = try await replacedVersion(ifMatch: ifMatch, name: name, projectID: access.project.id)
        } else if let ifNoneMatch, EntityTagList(parsing: ifNoneMatch) == .any {
            expected = (0, "")
        }
        try await requireQuota(.versions(1), projectID: access.project.id)
        let version = try await answering { () async throws(StoreError) in
            try await store.saveSpec(
                projectID: access.project.id, name: name, body: body, contentHash: hash,
                mediaType: syntax.mediaType, authorID: access.account?.id,
                expectedVersion: expected?.number, expectedHashPrefix: expected?.hashPrefix)
        }
        return Saved(version: version, warnings: diagnostics)
    }

    /// The version an `If-Match` field lets a save replace: the latest for `*` (there must be one);
    /// else the tag of its list that names the latest (RFC 9110 lets a list name several), or its
    /// first tag when none does, which the store then refuses.
    /// - Throws: ``APIError`` `412` when the field names no version of this spec, or `*` one that
    ///   does not exist.
    private func replacedVersion(ifMatch: String, name: String, projectID: String) async throws -> (
        number: Int, hashPrefix: String
    ) {
        let list = EntityTagList(parsing: ifMatch)
        if list == .any {
            guard let latest = try await store.spec(projectID: projectID, name: name) else {
                throw APIError(
                    .preconditionFailed, .preconditionFailed, "If-Match * but the spec '\(name)' does not exist")
            }
            return (latest.version, latest.contentHash)
        }
        var named: [(number: Int, hashPrefix: String)] = []
        if case .tags(let tags) = list { named = tags.compactMap(\.version) }
        guard let first = named.first else {
            throw APIError(
                .preconditionFailed, .preconditionFailed,
                "If-Match \(ifMatch) is not an ETag of this spec; fetch it again")
        }
        guard named.count > 1, let latest = try await store.spec(projectID: projectID, name: name) else { return first }
        return named.first { $0.number == latest.version && latest.contentHash.hasPrefix($0.hashPrefix) } ?? first
    }

    /// The latest version of a spec (or version `number`), with its body.
    /// - Throws: ``APIError`` `404` when the spec or the version does not exist.
    func spec(_ name: String, in access: ProjectAccess, version number: Int? = nil) async throws -> SpecVersion {
        guard ItemName.isValid(name),
            let version = try await store.spec(projectID: access.project.id, name: name, version: number)
        else {
            throw APIError.notFound(
                number.map { "the spec '\(name)' has no version \($0)" }
                    ?? "no spec '\(name)' in '\(access.project.slug)'")
        }
        return version
    }
}
