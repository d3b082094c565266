import ARVisStore
import Foundation
import Logging
import ServiceLifecycle

/// Deletes for good, once an hour, the projects trashed more than 30 days ago; stops with the server.
struct TrashPurger: Service {
    let store: Store
    let logger: Logger
    var retention: TimeInterval = ARVisAPI.trashRetention
    var interval: Duration = .seconds(3_600)

    func run() async throws {
        try await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    let purged = try await store.purgeTrash(before: Date(timeIntervalSinceNow: -retention))
                    if purged > 0 { logger.info("purged \(purged) project\(purged == 1 ? "" : "s") trashed over 30 days ago") }
                } catch {
                    logger.error("the trash could not be purged: \(error)")
                }
                try await Task.sleep(for: interval)
            }
        }
    }
}
