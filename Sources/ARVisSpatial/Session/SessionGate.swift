/// Whether an AR session is ready to place and save content, and what to tell the user — Bubble
/// Vision's rule: ready only when tracking is normal and the world map is mapped or extending.
public enum SessionGate {
    /// ARKit's camera tracking state.
    public enum TrackingState: Sendable, Hashable {
        /// Tracking works.
        case normal
        /// Tracking works poorly, for a reason.
        case limited(LimitedReason)
        /// No tracking.
        case notAvailable
    }

    /// Why tracking is limited.
    public enum LimitedReason: Sendable, Hashable {
        /// ARKit's `ARCamera.TrackingState.Reason` cases.
        case excessiveMotion, insufficientFeatures, initializing, relocalizing, unknown
    }

    /// ARKit's world-mapping status.
    public enum MappingStatus: Sendable, Hashable {
        /// ARKit's `ARFrame.WorldMappingStatus` cases.
        case notAvailable, limited, extending, mapped
    }

    /// The gate's verdict.
    public struct Verdict: Sendable, Hashable {
        /// Whether placing and saving are allowed.
        public var isReady: Bool
        /// The status line shown to the user.
        public var message: String

        /// Creates a verdict.
        public init(isReady: Bool, message: String) {
            self.isReady = isReady
            self.message = message
        }
    }

    /// The verdict for a frame: tracking problems first, then mapping, as Bubble Vision reports them.
    public static func evaluate(tracking: TrackingState, mapping: MappingStatus) -> Verdict {
        switch tracking {
        case .limited(let reason):
            let message =
                switch reason {
                case .excessiveMotion: "Move slower"
                case .insufficientFeatures: "Find a textured area"
                case .initializing: "Initializing tracking..."
                case .relocalizing: "Relocalizing..."
                case .unknown: "Tracking limited"
                }
            return Verdict(isReady: false, message: message)
        case .notAvailable:
            return Verdict(isReady: false, message: "Tracking unavailable")
        case .normal:
            switch mapping {
            case .notAvailable: return Verdict(isReady: false, message: "Mapping not available")
            case .limited: return Verdict(isReady: false, message: "Keep scanning environment...")
            case .extending, .mapped: return Verdict(isReady: true, message: "Ready to blow bubbles!")
            }
        }
    }

    /// The verdict after the session failed.
    public static func failed(_ reason: String) -> Verdict {
        Verdict(isReady: false, message: "Session failed: \(reason)")
    }
    /// The verdict while the session is interrupted.
    public static let interrupted = Verdict(isReady: false, message: "Session interrupted")
    /// The verdict when an interruption ends, until the next frame's evaluation.
    public static let resuming = Verdict(isReady: false, message: "Resuming session...")
}

/// Keeps at most `maximum` items, removing the oldest first when a new one arrives (Bubble Vision's
/// 100-bubble cap).
public struct CapacityPolicy: Sendable, Hashable {
    /// The largest number of items kept.
    public var maximum: Int

    /// Creates a policy; `maximum` is at least 1.
    public init(maximum: Int = 100) { self.maximum = max(1, maximum) }

    /// `items` with `item` added, and the items removed to make room (oldest `createdAt` first; ties
    /// keep the earlier item in the list first).
    public func inserting<Item>(_ item: Item, into items: [Item], createdAt: (Item) -> Double) -> (
        kept: [Item], removed: [Item]
    ) {
        var kept = items
        var removed: [Item] = []
        while kept.count >= maximum {
            let oldest = kept.indices.min { (createdAt(kept[$0]), $0) < (createdAt(kept[$1]), $1) }!
            removed.append(kept.remove(at: oldest))
        }
        kept.append(item)
        return (kept, removed)
    }
}
