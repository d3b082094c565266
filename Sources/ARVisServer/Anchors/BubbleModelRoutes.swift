import ARVisModel
import ARVisPipeline
import ARVisSpatial
import ARVisStore
import ARVisSupport
import Foundation
import Hummingbird

/// The project's bubbles as 3D files, as they stand when opened (``BubbleScene``):
/// - `GET /api/v1/projects/{project}/bubbles.glb`: the film as `KHR_materials_iridescence`
///   (Scene Viewer, three.js and other viewers that compute interference);
/// - `GET /api/v1/projects/{project}/bubbles.usdz`: the film's colour baked into a texture per
///   colour, as USD has no iridescence (AR Quick Look on a horizontal plane).
struct BubbleModelRoutes: Sendable {
    let services: ServerServices

    func register(on router: Router<ServerContext>) {
        router.get("/api/v1/projects/{project}/bubbles.glb") { request, context in
            try await bubbles(request, context, film: .iridescent, mediaType: "model/gltf-binary") {
                (model) throws(ModelError) in
                try GLBWriter().write(model)
            }
        }
        router.get("/api/v1/projects/{project}/bubbles.usdz") { request, context in
            try await bubbles(request, context, film: .baked, mediaType: "model/vnd.usdz+zip") {
                (model) throws(ModelError) in
                try USDZWriter(anchoring: .plane(alignment: "horizontal")).write(model)
            }
        }
    }

    /// The most bubbles a file holds: each pane has a film of its own (its phase), a texture each,
    /// and a model holds at most 1 024 textures.
    static let mostBubbles = 1_000

    /// The project's bubbles written by `write`; `422` for a project with none or more than ``mostBubbles``.
    private func bubbles(
        _ request: Request, _ context: ServerContext, film: BubbleScene.Film, mediaType: String,
        write: @Sendable (Model) throws(ModelError) -> [UInt8]
    ) async throws -> Response {
        let access = try await services.access(context)
        let anchors = try await answering { () async throws(StoreError) in
            try await services.store.anchors(projectID: access.project.id)
        }
        let placed = anchors.compactMap(Self.placed)
        guard !placed.isEmpty else {
            throw APIError.invalid(.noRows, "the project has no bubble yet: blow one with the phone's Bubbles tool")
        }
        guard placed.count <= Self.mostBubbles else {
            throw APIError(
                .unprocessableContent, .tooLarge,
                "the project has \(placed.count) bubbles, more than the \(Self.mostBubbles) a file of them holds: an owner can remove them all with DELETE …/bubbles"
            )
        }
        return try ModelFileResponse.response(
            BubbleScene(placed).model(film), what: "the bubbles", mediaType: mediaType, request: request,
            write: write)
    }

    /// The bubble an anchor holds where it was blown, or `nil` for another kind of anchor.
    static func placed(_ anchor: Anchor) -> BubbleScene.Placed? {
        guard anchor.pose.count == 7, let payload = anchor.payload,
            let value = try? JSONDecoder().decode(JSONValue.self, from: Data(payload)),
            let bubble = try? Bubble(payload: value)
        else { return nil }
        let pose = anchor.pose
        return BubbleScene.Placed(
            position: SIMD3(pose[0], pose[1], pose[2]),
            orientation: Rotation(x: pose[3], y: pose[4], z: pose[5], w: pose[6]),
            bubble: bubble)
    }
}
