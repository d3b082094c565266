import ARVisModel
import ARVisPipeline
import ARVisPlanting
import ARVisStore
import ARVisSupport
import ARVisWire
import Foundation
import HTTPTypes
import Hummingbird

/// The trees as 3D files:
/// - `GET /api/v1/species/{species}/model.glb`: a species' low-poly model (``SpeciesModel``), made
///   once per server and kept; the AR view draws it instanced;
/// - `GET /api/v1/projects/{project}/trees.glb` and `….usdz`: the project's planting as it stands
///   when opened, each species' model placed at every tree (Scene Viewer, AR Quick Look on a
///   horizontal plane).
struct TreeModelRoutes: Sendable {
    let services: ServerServices

    /// Every catalog species' model as GLB, by Latin name, made on first use.
    static let speciesModels: [String: [UInt8]] = Dictionary(
        SpeciesCatalog.standard.species.compactMap { species in
            (try? GLBWriter().write(SpeciesModel(species).model)).map { (species.latinName, $0) }
        },
        uniquingKeysWith: { first, _ in first })

    /// The catalog species a path names: its Latin name with `-` or a space between the words, in
    /// any case (`pinus-pinea`).
    static func species(named name: String) -> Species? {
        SpeciesCatalog.standard.species.first {
            $0.latinName.lowercased() == name.replacingOccurrences(of: "-", with: " ").lowercased()
        }
    }

    /// The path of a species' model.
    static func modelPath(of species: Species) -> String {
        "/api/v1/species/\(species.latinName.lowercased().replacingOccurrences(of: " ", with: "-"))/model.glb"
    }

    func register(on router: Router<ServerContext>) {
        router.get("/api/v1/species/{species}/model.glb") { request, context in
            let name = try context.parameters.require("species")
            guard let species = Self.species(named: name), let glb = Self.speciesModels[species.latinName] else {
                throw APIError.notFound(
                    "no species '\(name.prefix(100))' in the catalog: GET /api/v1/species lists them")
            }
            return HubRoutes.response(
                Output(bytes: glb, mediaType: "model/gltf-binary"),
                etag: EntityTag(joining: [String(Digest.sha256Hex(glb).prefix(32))]), request: request)
        }
        router.get("/api/v1/projects/{project}/trees.glb") { request, context in
            try await planting(request, context, mediaType: "model/gltf-binary") { (model) throws(ModelError) in
                try GLBWriter().write(model)
            }
        }
        router.get("/api/v1/projects/{project}/trees.usdz") { request, context in
            try await planting(request, context, mediaType: "model/vnd.usdz+zip", limit: Self.usdzTrees) {
                (model) throws(ModelError) in
                try USDZWriter(anchoring: .plane(alignment: "horizontal")).write(model)
            }
        }
    }

    /// The most trees a USDZ holds: USD has no shared meshes here, so each tree carries its own
    /// copy (about 6 kB); AR Quick Look would not draw more at once anyway.
    static let usdzTrees = 5_000

    /// The project's trees written by `write`; `422` for a project with no tree or more than `limit`.
    private func planting(
        _ request: Request, _ context: ServerContext, mediaType: String, limit: Int = .max,
        write: @Sendable (Model) throws(ModelError) -> [UInt8]
    ) async throws -> Response {
        let access = try await services.access(context)
        let trees = try await answering { () async throws(StoreError) in
            try await services.store.trees(projectID: access.project.id, limit: limit == .max ? .max : limit + 1)
        }
        guard !trees.isEmpty else {
            throw APIError.invalid(.noRows, "the project has no tree yet: plant one first")
        }
        guard trees.count <= limit else {
            throw APIError(
                .unprocessableContent, .tooLarge,
                "the planting has more than \(limit) trees, the most a USDZ of it holds: GET …/trees.glb has them all")
        }
        let scene = PlantingScene(
            trees.map {
                PlantingScene.Tree(
                    species: $0.species, position: SIMD3($0.x, $0.y, $0.z), yaw: $0.yaw, scale: $0.scale)
            })
        return try ModelFileResponse.response(
            scene.model, what: "the planting", mediaType: mediaType, request: request, write: write)
    }
}
