import ARVisSpec
import ARVisStore
import ARVisSupport
import Foundation
import OpenAPIRuntime

/// A room's annotations through the API: listed a page at a time, deleted by an editor.
extension ARVisAPI {
    static func schema(_ annotation: Annotation) -> Components.Schemas.Annotation {
        .init(
            id: annotation.id, room: annotation.room,
            position: .init(x: annotation.x, y: annotation.y, z: annotation.z), text: annotation.text,
            frame: annotation.frame.map { Int(saturating: Double($0)) }, author: annotation.author,
            createdAt: annotation.createdAt,
            clientId: annotation.clientID)
    }

    func listAnnotations(_ input: Operations.ListAnnotations.Input) async throws -> Operations.ListAnnotations.Output {
        let access = try await access(input.path.project)
        let limit = try Self.pageLimit(input.query.limit)
        let annotations = try await store.annotations(
            projectID: access.project.id, room: try input.query.room.map(Self.room), after: input.query.after,
            limit: limit + 1)
        let page = annotations.prefix(limit)
        return .ok(
            .init(
                body: .json(
                    .init(
                        annotations: page.map(Self.schema), next: annotations.count > limit ? page.last?.id : nil))))
    }

    func deleteAnnotation(_ input: Operations.DeleteAnnotation.Input) async throws -> Operations.DeleteAnnotation.Output
    {
        let access = try await access(input.path.project, needs: .editor)
        try APIError.found(
            await store.deleteAnnotation(projectID: access.project.id, id: input.path.id),
            else: "no annotation \(input.path.id)")
        return .noContent(.init())
    }
}
