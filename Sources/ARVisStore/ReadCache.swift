import Foundation
import NIOConcurrencyHelpers

/// The reads the spec hub makes on every request — a project by slug, a spec's latest version —
/// kept in memory. Every write through the store drops what it changes; entries also expire after
/// ``lifetime``, which bounds how stale a read can be when another server instance wrote to the
/// same PostgreSQL database.
///
/// A read that raced a write must not keep the older value: every write bumps a generation, and a
/// value read before it (``generation`` taken before the read) is not kept.
final class ReadCache: Sendable {
    private struct Entry<Value: Sendable>: Sendable {
        var value: Value
        var expires: ContinuousClock.Instant
    }

    private struct State: Sendable {
        var projects: [String: Entry<Project?>] = [:]
        var latestSpecs: [String: Entry<SpecVersion?>] = [:]
        var generation: UInt64 = 0
        /// Annotations and trees this instance just wrote, by project and id: the live streams read
        /// each back once for its event, and neither changes until it is deleted.
        var annotations: [String: Annotation] = [:]
        var trees: [String: Tree] = [:]
    }

    private let state = NIOLockedValueBox(State())
    /// How long an entry is trusted.
    let lifetime: Duration
    /// The most entries of each kind; past it, the kind is emptied (simple and bounded).
    let capacity = 10_000

    init(lifetime: Duration) {
        self.lifetime = lifetime
    }

    /// The current generation, to take before a read whose result may be kept.
    var generation: UInt64 { state.withLockedValue { $0.generation } }

    func project(slug: String) -> Project?? {
        state.withLockedValue { state in
            guard let entry = state.projects[slug], entry.expires > .now else { return nil }
            return .some(entry.value)
        }
    }

    func remember(_ project: Project?, slug: String, readAt generation: UInt64) {
        state.withLockedValue { state in
            guard state.generation == generation else { return }
            if state.projects.count >= capacity { state.projects.removeAll(keepingCapacity: true) }
            state.projects[slug] = Entry(value: project, expires: .now + lifetime)
        }
    }

    func latestSpec(projectID: String, name: String) -> SpecVersion?? {
        state.withLockedValue { state in
            guard let entry = state.latestSpecs[projectID + "/" + name], entry.expires > .now else { return nil }
            return .some(entry.value)
        }
    }

    func remember(_ version: SpecVersion?, projectID: String, name: String, readAt generation: UInt64) {
        state.withLockedValue { state in
            guard state.generation == generation else { return }
            if state.latestSpecs.count >= capacity { state.latestSpecs.removeAll(keepingCapacity: true) }
            state.latestSpecs[projectID + "/" + name] = Entry(value: version, expires: .now + lifetime)
        }
    }

    func annotation(projectID: String, id: String) -> Annotation? {
        state.withLockedValue { $0.annotations[projectID + "/" + id] }
    }

    func remember(_ annotation: Annotation, projectID: String) {
        state.withLockedValue { state in
            if state.annotations.count >= capacity { state.annotations.removeAll(keepingCapacity: true) }
            state.annotations[projectID + "/" + annotation.id] = annotation
        }
    }

    func tree(projectID: String, id: String) -> Tree? {
        state.withLockedValue { $0.trees[projectID + "/" + id] }
    }

    func remember(_ tree: Tree, projectID: String) {
        state.withLockedValue { state in
            if state.trees.count >= capacity { state.trees.removeAll(keepingCapacity: true) }
            state.trees[projectID + "/" + tree.id] = tree
        }
    }

    /// Drops an annotation or a tree that was deleted (here or, on PostgreSQL, by another instance).
    func forgetItem(projectID: String, id: String) {
        state.withLockedValue { state in
            state.annotations.removeValue(forKey: projectID + "/" + id)
            state.trees.removeValue(forKey: projectID + "/" + id)
        }
    }

    /// Drops every project (a project changed, was trashed, restored or purged).
    func forgetProjects() {
        state.withLockedValue { state in
            state.projects.removeAll(keepingCapacity: true)
            state.generation &+= 1
        }
    }

    /// Drops a spec's latest version (it was saved or deleted).
    func forgetSpec(projectID: String, name: String) {
        state.withLockedValue { state in
            state.latestSpecs.removeValue(forKey: projectID + "/" + name)
            state.generation &+= 1
        }
    }
}
