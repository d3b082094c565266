import ARVisStore
import Foundation
import Logging
import ServiceLifecycle

/// Once an hour, deletes for good the projects and assets trashed more than 30 days ago (and the
/// asset files nothing refers to any more), the anchors past their lifetime and the live event log
/// older than 30 days; stops with the server.
struct Housekeeper: Service {
    let store: Store
    let logger: Logger
    let library: AssetLibrary
    var retention: TimeInterval = ARVisAPI.trashRetention
    var interval: Duration = .seconds(3_600)

    func run() async {
        // Cancelled at graceful shutdown: the sleep ends early and the loop with it, without an error.
        await cancelWhenGracefulShutdown { [self] in
            while !Task.isCancelled {
                await sweep()
                try? await Task.sleep(for: interval)
            }
        }
    }

    /// One round: the trash, unused asset files, expired anchors, old events, room links expired
    /// over a day ago (until then they are refused as expired, not unknown).
    func sweep() async {
        do {
            try await store.deleteRoomLinks(expiredBefore: Date(timeIntervalSinceNow: -86_400))
            let projects = try await store.purgeTrash(before: Date(timeIntervalSinceNow: -retention))
            let anchors = try await store.purgeExpiredAnchors()
            let events = try await store.purgeEvents(before: Date(timeIntervalSinceNow: -retention))
            let assets = try await store.purgeTrashedAssets(before: Date(timeIntervalSinceNow: -retention))
            let files = try await library.removeUnused(keeping: try await store.assetHashesInUse())
            if projects + anchors + events + assets + files > 0 {
                logger.info(
                    "purged \(projects) project(s) and \(assets) asset(s) trashed over 30 days ago, \(files) asset file(s) no longer used, \(anchors) expired anchor(s) and \(events) event(s) over 30 days old"
                )
            }
        } catch {
            logger.error("housekeeping failed: \(error)")
        }
    }
}
