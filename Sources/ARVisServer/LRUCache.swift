/// Values by key, weighed, the least recently used dropped first past a count or a total weight.
///
/// A value type: keep it behind a lock (`NIOLockedValueBox`) to share it. Eviction looks for the
/// oldest entry by a scan, which is cheap for the few hundred entries these caches hold.
struct LRUCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Entry: Sendable {
        var value: Value
        var weight: Int
        var used: UInt64
    }

    /// The most entries kept.
    let capacity: Int
    /// The most total weight kept (bytes, usually).
    let weightCapacity: Int
    private var entries: [Key: Entry] = [:]
    private var clock: UInt64 = 0
    /// The total weight of what is kept.
    private(set) var weight = 0

    init(capacity: Int, weightCapacity: Int) {
        self.capacity = capacity
        self.weightCapacity = weightCapacity
    }

    /// The number of entries kept.
    var count: Int { entries.count }

    /// The value kept for `key`, marked as just used.
    mutating func value(for key: Key) -> Value? {
        guard entries[key] != nil else { return nil }
        clock += 1
        entries[key]?.used = clock
        return entries[key]?.value
    }

    /// Keeps `value` under `key`, dropping the least recently used others until it fits; a value
    /// heavier than the whole capacity is not kept.
    mutating func insert(_ value: Value, weight: Int, for key: Key) {
        remove(key)
        guard weight <= weightCapacity else { return }
        while !entries.isEmpty, entries.count >= capacity || self.weight + weight > weightCapacity {
            guard let oldest = entries.min(by: { $0.value.used < $1.value.used })?.key else { break }
            remove(oldest)
        }
        clock += 1
        entries[key] = Entry(value: value, weight: weight, used: clock)
        self.weight += weight
    }

    /// Forgets `key`'s value.
    mutating func remove(_ key: Key) {
        if let old = entries.removeValue(forKey: key) { weight -= old.weight }
    }

    /// Forgets every value whose key satisfies `shouldRemove`.
    mutating func removeAll(where shouldRemove: (Key) -> Bool) {
        for key in entries.keys where shouldRemove(key) { remove(key) }
    }
}
