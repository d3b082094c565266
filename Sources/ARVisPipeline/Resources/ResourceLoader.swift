/// Loads the bytes a spec refers to: images, posters, target pictures, models.
///
/// ``SafeResourceLoader`` is the implementation with a safe ``ResourcePolicy``; tests and apps may
/// supply their own (an app's bundle, a cache, a store).
public protocol ResourceLoader: Sendable {
    /// The bytes of `reference`, a URL or path as written in a spec.
    /// - Throws: ``PipelineError`` saying why the resource cannot be had.
    func load(_ reference: String) async throws(PipelineError) -> [UInt8]
}

/// The outcome of loading several resources: what arrived, and why the rest did not.
public struct LoadedResources: Sendable {
    /// The bytes of each reference that loaded.
    public var bytes: [String: [UInt8]] = [:]
    /// One error per reference that did not, in the order the references were given.
    public var failures: [PipelineError] = []

    /// Creates an empty set.
    public init() {}
}

extension ResourceLoader {
    /// The bytes of `reference`, or why not, as a value.
    func loadResult(_ reference: String) async -> Result<[UInt8], PipelineError> {
        do {
            return .success(try await load(reference))
        } catch {
            return .failure(error)
        }
    }

    /// Loads every one of `references` (duplicates once), at most `concurrency` at a time.
    public func loadAll(_ references: [String], concurrency: Int = 6) async -> LoadedResources {
        var unique: [String] = []
        var seen = Set<String>()
        for reference in references where seen.insert(reference).inserted { unique.append(reference) }
        var results = [Result<[UInt8], PipelineError>?](repeating: nil, count: unique.count)
        await withTaskGroup(of: (Int, Result<[UInt8], PipelineError>).self) { group in
            var next = 0
            func start() {
                guard next < unique.count else { return }
                let index = next
                let reference = unique[index]
                next += 1
                group.addTask { (index, await loadResult(reference)) }
            }
            for _ in 0..<max(1, concurrency) { start() }
            for await (index, result) in group {
                results[index] = result
                start()
            }
        }
        var loaded = LoadedResources()
        for (reference, result) in zip(unique, results) {
            switch result {
            case .success(let bytes)?: loaded.bytes[reference] = bytes
            case .failure(let error)?: loaded.failures.append(error)
            case nil: break
            }
        }
        return loaded
    }
}
