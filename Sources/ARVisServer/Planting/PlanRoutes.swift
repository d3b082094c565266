import ARVisPipeline
import ARVisStore
import ARVisSupport
import ARVisWire
import Foundation
import HTTPTypes
import Hummingbird

/// GeoJSON as it was stored, byte for byte (thousands of trees are not decoded and re-encoded on
/// every read):
/// - `GET /api/v1/projects/{project}/plans/{id}`: a plan's, as `arvis plant` writes it;
/// - `GET /api/v1/projects/{project}/areas/{id}/geojson`: an area's polygons and exclusion zones as
///   sent, `{"area": …, "exclusions": … or null}`, for maps that draw them.
struct PlanRoutes: Sendable {
    let services: ServerServices

    func register(on router: Router<ServerContext>) {
        router.get("/api/v1/projects/{project}/plans/{id}") { request, context in
            let access = try await services.access(context)
            let id = try context.parameters.require("id")
            guard let plan = try await services.store.plan(projectID: access.project.id, id: id),
                let geojson = plan.geojson
            else {
                throw APIError.notFound("no plan \(id)")
            }
            return HubRoutes.response(
                Output(bytes: geojson, mediaType: "application/geo+json"), etag: EntityTag(joining: ["\(plan.id)"]),
                request: request)
        }
        router.get("/api/v1/projects/{project}/areas/{id}/geojson") { request, context in
            let access = try await services.access(context)
            let id = try context.parameters.require("id")
            let area = try APIError.found(
                await services.store.area(projectID: access.project.id, id: id), else: "no area \(id)")
            let bytes =
                Array("{\"area\":".utf8) + area.area + Array(",\"exclusions\":".utf8)
                + (area.exclusions ?? Array("null".utf8)) + [UInt8(ascii: "}")]
            return HubRoutes.response(
                Output(bytes: bytes, mediaType: "application/json"), etag: EntityTag(joining: ["\(area.id)"]),
                request: request)
        }
    }
}
