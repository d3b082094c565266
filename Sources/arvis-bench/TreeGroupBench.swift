import ARVisPlanting
import ARVisSpatial
import ARVisSpec
import ARVisStore
import ArgumentParser
import Foundation

/// The server's share of a tap in AR: a ReforestAR group planted among a project's stored trees in
/// one transaction (read around the tap, decide, insert, log the events), on SQLite.
struct TreeGroupBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tree-groups",
        abstract:
            "Time taps of 5 trees planted by the store among 5 000 stored trees (SQLite): the server's share of a tap in AR."
    )

    @Option(help: "Trees stored before the taps, on a grid 4 m apart.")
    var stored = 5_000

    @Option(help: "Timed taps.")
    var taps = 200

    func validate() throws {
        guard (4...1_000_000).contains(stored), (1...100_000).contains(taps) else {
            throw ValidationError("--stored is 4 to 1 000 000 and --taps 1 to 100 000")
        }
    }

    func run() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("arvis-tree-groups-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try await Store.open(sqliteAt: folder.appendingPathComponent("arvis.sqlite").path)
        let owner = try await store.createAccount(username: "bench", passwordHash: "-")
        let project = try await store.createProject(
            slug: "bench", name: "Bench", visibility: .private, ownerID: owner.id)
        let side = Int(Double(stored).squareRoot().rounded(.up))
        for index in 0..<stored {
            let tree = Tree(
                species: "Quercus suber", spacing: 1, x: Double(index % side) * 4, y: 0, z: Double(index / side) * 4)
            _ = try await store.plantTree(projectID: project.id, tree, plantedByID: owner.id, largestSpacing: 1)
        }
        let group = ProjectTapGroup(scale: 0.5, count: 5)
        var generator = SplitMix64(seed: 5)
        var times: [Double] = []
        var (planted, refused) = (0, 0)
        for tap in 0..<taps {
            // Taps between the grid's trees, each session its own (no 5sn limit between them).
            let x = Double(Int.random(in: 0..<(side - 1), using: &generator)) * 4 + 2
            let z = Double(Int.random(in: 0..<(side - 1), using: &generator)) * 4 + 2
            let session = "bench-\(tap)"
            let start = DispatchTime.now().uptimeNanoseconds
            let outcome = try await store.plantTreeGroup(
                projectID: project.id, session: session, clientID: nil, around: x, z, within: group.reach + 1,
                plantedByID: owner.id
            ) { standing in
                var random = SplitMix64(seed: UInt64(tap))
                let trees = standing.map {
                    ProjectTapGroup.Standing(
                        position: Vec3($0.x, $0.y, $0.z), spacing: $0.spacing, sameSession: $0.session == session)
                }
                switch group.plant(at: Vec3(x, 0, z), among: trees, using: &random) {
                case .placed(let placements):
                    return .plant(
                        placements.map {
                            Tree(
                                species: "Pinus pinea", spacing: group.spacing, x: $0.position.x, y: 0,
                                z: $0.position.z, yaw: $0.yaw, group: "g\(tap)", session: session)
                        })
                case .noSpace(let blocking): return .refuse(blocking: blocking.map { standing[$0] }, reason: "")
                }
            }
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            if case .planted = outcome { planted += 1 } else { refused += 1 }
        }
        await store.close()
        let sorted = times.sorted()
        let median = sorted[sorted.count / 2]
        let p95 = sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.95))]
        print(
            String(
                format: "%d taps of 5 trees among %d stored: median %.2f ms, p95 %.2f ms (%d planted, %d refused)",
                taps, stored, median, p95, planted, refused))
        print(String(format: "RESULT tree_group_store_median %.3f ms", median))
        print(String(format: "RESULT tree_group_store_p95 %.3f ms", p95))
    }
}
