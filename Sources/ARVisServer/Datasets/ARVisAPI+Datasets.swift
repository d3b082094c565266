import ARVisSpec
import ARVisStore
import ARVisSupport
import Foundation
import OpenAPIRuntime

/// A project's datasets through the API: listed with their row counts, deleted by an editor. Rows
/// are appended and read by ``DatasetRoutes``.
extension ARVisAPI {
    func listDatasets(_ input: Operations.ListDatasets.Input) async throws -> Operations.ListDatasets.Output {
        let access = try await access(input.path.project)
        let datasets = try await store.datasets(projectID: access.project.id)
        return .ok(.init(body: .json(.init(datasets: datasets.map { .init(name: $0.name, rows: $0.rows) }))))
    }

    func deleteDataset(_ input: Operations.DeleteDataset.Input) async throws -> Operations.DeleteDataset.Output {
        let access = try await access(input.path.project, needs: .editor)
        guard ItemName.isValid(input.path.dataset),
            try await store.deleteDataset(projectID: access.project.id, dataset: input.path.dataset)
        else {
            throw APIError.notFound("no dataset '\(input.path.dataset)'")
        }
        return .noContent(.init())
    }
}
