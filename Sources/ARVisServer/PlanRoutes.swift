import ARVisStore
import Foundation
import HTTPTypes
import Hummingbird

/// `GET /api/v1/projects/{project}/plans/{id}`: a stored plan's GeoJSON, byte for byte as
/// `arvis plant` writes it (thousands of trees are not decoded and re-encoded on every read).
struct PlanRoutes: Sendable {
    let api: ARVisAPI

    func register(on router: Router<ServerContext>) {
        router.get("/api/v1/projects/{project}/plans/{id}") { request, context in
            let access = try await api.access(try context.parameters.require("project"), token: SessionToken.bearer(request.headers[.authorization]))
            let id = try context.parameters.require("id")
            guard let plan = try await api.store.plan(projectID: access.project.id, id: id), let geojson = plan.geojson else {
                throw APIError.notFound("no plan \(id)")
            }
            return HubRoutes.response(HubRenderer.Output(bytes: geojson, mediaType: "application/geo+json"), etag: "\"\(plan.id)\"", request: request)
        }
    }
}
