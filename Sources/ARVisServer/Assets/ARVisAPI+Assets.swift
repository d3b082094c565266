import ARVisModel
import ARVisStore
import Foundation
import OpenAPIRuntime

extension ARVisAPI {
    /// A gallery name: 1 to 200 characters, no control characters, trimmed.
    static func assetName(_ name: String) throws -> String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...200).contains(trimmed.count),
            !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            throw APIError.invalid(.invalidName, "an asset's name is 1 to 200 characters without control characters")
        }
        return trimmed
    }

    func listAssets(_ input: Operations.ListAssets.Input) async throws -> Operations.ListAssets.Output {
        let trashed = input.query.trashed ?? false
        let access = try await access(input.path.project, needs: trashed ? .viewer : nil)
        let order = Store.AssetOrder(rawValue: input.query.sort?.rawValue ?? "name") ?? .name
        let assets = try await store.assets(projectID: access.project.id, trashed: trashed, order: order)
        var listed: [Components.Schemas.Asset] = []
        for asset in assets { listed.append(try await services.schema(asset, in: access)) }
        return .ok(.init(body: .json(.init(assets: listed))))
    }

    func getAsset(_ input: Operations.GetAsset.Input) async throws -> Operations.GetAsset.Output {
        let access = try await access(input.path.project)
        return .ok(
            .init(
                body: .json(try await services.schema(try await services.asset(input.path.id, in: access), in: access)))
        )
    }

    func renameAsset(_ input: Operations.RenameAsset.Input) async throws -> Operations.RenameAsset.Output {
        let access = try await access(input.path.project, needs: .editor)
        guard case .json(let body) = input.body else { throw APIError.badRequest("send JSON {name}") }
        guard
            try await store.renameAsset(
                projectID: access.project.id, id: input.path.id, to: try Self.assetName(body.name))
        else {
            throw APIError.notFound("no asset \(input.path.id)")
        }
        return .ok(
            .init(
                body: .json(try await services.schema(try await services.asset(input.path.id, in: access), in: access)))
        )
    }

    func trashAsset(_ input: Operations.TrashAsset.Input) async throws -> Operations.TrashAsset.Output {
        let access = try await access(input.path.project, needs: .editor)
        try APIError.found(
            await store.trashAsset(projectID: access.project.id, id: input.path.id), else: "no asset \(input.path.id)")
        return .noContent(.init())
    }

    func restoreAsset(_ input: Operations.RestoreAsset.Input) async throws -> Operations.RestoreAsset.Output {
        let access = try await access(input.path.project, needs: .editor)
        try APIError.found(
            await store.restoreAsset(projectID: access.project.id, id: input.path.id),
            else: "no asset \(input.path.id) in the trash")
        return .ok(
            .init(
                body: .json(try await services.schema(try await services.asset(input.path.id, in: access), in: access)))
        )
    }

}

extension ServerServices {
    /// An asset as the API shows it, with the links a client follows: in a private project each
    /// carries a short-lived read-only grant for this asset (``AssetGrants``), so a page never puts
    /// its session token in a link a person may copy.
    func schema(_ asset: Asset, in access: ProjectAccess) async throws -> Components.Schemas.Asset {
        let query =
            access.project.visibility == .private
            ? "?grant=" + (try await grants.grant(projectID: access.project.id, assetID: asset.id)) : ""
        let project = access.project.slug
        let base = "/api/v1/projects/\(project)/assets/\(asset.id)"
        let summary = asset.summary.flatMap {
            try? JSONDecoder().decode(Components.Schemas.AssetSummary.self, from: Data($0.utf8))
        }
        return .init(
            id: asset.id, name: asset.name, format: .init(rawValue: asset.format) ?? .glb, size: asset.size,
            contentHash: asset.contentHash,
            status: .init(rawValue: asset.status.rawValue) ?? .failed, failure: asset.failure, summary: summary,
            uploader: asset.uploaderName, createdAt: asset.createdAt, trashedAt: asset.trashedAt,
            links: .init(
                glb: base + "/model.glb" + query, usdz: base + "/model.usdz" + query,
                thumbnail: base + "/thumbnail.png" + query, viewer: "/a/\(project)/\(asset.id)" + query))
    }

    /// The asset `id` of the project, out of the trash.
    func asset(_ id: String, in access: ProjectAccess) async throws -> Asset {
        let asset = try APIError.found(await store.asset(projectID: access.project.id, id: id), else: "no asset \(id)")
        return asset
    }
}
