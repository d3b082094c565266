public import ARVisSupport

/// A bubble a device blew into a project (Bubble Vision on the phone): a soap-film pane, or a trail
/// of film painted along the device's path, as the payload of the project's anchor that holds it
/// (`{"kind": "pane", …}` or `{"kind": "trail", …}`, docs/webxr.md, "Bubbles"). The anchor's pose
/// places it in the project's frame: a pane's centre and turn (it faces its local +z), a trail's
/// first slice.
///
/// ```swift
/// if let bubble = try Bubble(payload: payload) { … }  // nil: an anchor that is not a bubble
/// ```
public enum Bubble: Equatable, Sendable {
    case pane(Pane)
    case trail(Trail)

    /// A pane: Bubble Vision's 0.6 × 0.4 m by default.
    public struct Pane: Equatable, Sendable {
        /// Width in metres, 0.1 to 2.
        public var width: Double
        /// Height in metres, 0.05 to 2 (two thirds of the width when not given).
        public var height: Double
        /// How much thicker (nm, −300 to 300) than the film's drifting 400 ± 300 nm: its colour.
        public var thicknessOffset: Double
        /// Where in its drift the film's pattern is (seconds ahead of the clock; the phone picks
        /// one at random, so panes blown together do not shimmer in step).
        public var phase: Double

        /// Creates a pane.
        public init(width: Double, height: Double, thicknessOffset: Double = 0, phase: Double = 0) {
            (self.width, self.height, self.thicknessOffset, self.phase) = (width, height, thicknessOffset, phase)
        }
    }

    /// A trail: the positions of its slices, each a centimetre or more from the last.
    public struct Trail: Equatable, Sendable {
        /// The device's up when painting began, in the project's frame (the first slice's normal).
        public var up: [Double]
        /// The slices' positions as stored: millimetres from the anchor's position, each the
        /// difference from the one before, three numbers a slice.
        public var points: [Int]
        /// How much thicker (nm, −300 to 300) than the film's drifting pattern: its colour.
        public var thicknessOffset: Double

        /// How many slices the trail has.
        public var sliceCount: Int { points.count / 3 }

        /// Creates a trail.
        public init(up: [Double], points: [Int], thicknessOffset: Double = 0) {
            (self.up, self.points, self.thicknessOffset) = (up, points, thicknessOffset)
        }
    }

    /// The payload kinds that are bubbles.
    public static let kinds: Set<String> = ["pane", "trail"]

    /// The most slices a trail holds (the seed's SliceRing).
    public static let maxSlices = 1024
    /// The widths a pane may have (m).
    public static let widths = 0.1...2.0
    /// The heights a pane may have (m).
    public static let heights = 0.05...2.0
    /// The colour offsets a bubble may have (nm).
    public static let thicknessOffsets = -300.0...300.0
    /// The phases a pane may have (s).
    public static let phases = -1_000_000.0...1_000_000.0
    /// The longest step between two slices of a trail (mm).
    public static let longestStep = 100_000

    /// The bubble `payload` describes, or `nil` when it is not a bubble (no `kind` of `pane` or
    /// `trail`: an anchor of another app's).
    /// - Throws: ``SpatialError`` `invalidMessage`, located at the offending field, when it is a
    ///   bubble that breaks a rule: a size out of range, a non-finite number, more slices than
    ///   ``maxSlices``, a step longer than 100 m.
    public init?(payload: JSONValue) throws(SpatialError) {
        switch payload["kind"]?.string {
        case "pane": self = .pane(try Self.pane(payload))
        case "trail": self = .trail(try Self.trail(payload))
        default: return nil
        }
    }

    private static func pane(_ payload: JSONValue) throws(SpatialError) -> Pane {
        let width = try number(payload, "width", in: widths, "a pane is 0.1 to 2 m wide")
        let height = try number(payload, "height", in: heights, "a pane is 0.05 to 2 m high", default: width * 2 / 3)
        return Pane(
            width: width, height: height,
            thicknessOffset: try number(
                payload, "thicknessOffset", in: thicknessOffsets, "a thickness offset is −300 to 300 nm", default: 0),
            phase: try number(payload, "phase", in: phases, "a phase is a finite number of seconds", default: 0))
    }

    private static func trail(_ payload: JSONValue) throws(SpatialError) -> Trail {
        guard let up = payload["up"]?.array?.compactMap(\.number), up.count == 3, up.allSatisfy(\.isFinite),
            up.map({ $0 * $0 }).reduce(0, +) > 1e-12
        else {
            throw SpatialError(
                .invalidMessage, "a trail's up is three finite numbers, not all 0", location: "payload.up")
        }
        guard let values = payload["points"]?.array else {
            throw SpatialError(
                .invalidMessage, "a trail's points are an array of whole millimetres", location: "payload.points")
        }
        guard values.count % 3 == 0, values.count >= 6 else {
            throw SpatialError(
                .invalidMessage, "a trail has two or more slices, three numbers each; got \(values.count) numbers",
                location: "payload.points")
        }
        guard values.count / 3 <= maxSlices else {
            throw SpatialError(
                .invalidMessage, "a trail holds at most \(maxSlices) slices; got \(values.count / 3)",
                location: "payload.points")
        }
        var points: [Int] = []
        points.reserveCapacity(values.count)
        for (index, value) in values.enumerated() {
            guard let number = value.number, number.isFinite, number == number.rounded(),
                abs(number) <= Double(longestStep)
            else {
                throw SpatialError(
                    .invalidMessage, "a trail's point is a whole number of millimetres within ±100 m of the last",
                    location: "payload.points[\(index)]")
            }
            points.append(Int(number))
        }
        return Trail(
            up: up, points: points,
            thicknessOffset: try number(
                payload, "thicknessOffset", in: thicknessOffsets, "a thickness offset is −300 to 300 nm", default: 0))
    }

    /// Field `name` of `payload`: a finite number in `range` (`fallback` when it is absent).
    private static func number(
        _ payload: JSONValue, _ name: String, in range: ClosedRange<Double>, _ rule: String,
        default fallback: Double? = nil
    ) throws(SpatialError) -> Double {
        guard let field = payload[name], field != .null else {
            if let fallback { return fallback }
            throw SpatialError(.invalidMessage, rule, location: "payload.\(name)")
        }
        guard let value = field.number, value.isFinite, range.contains(value) else {
            throw SpatialError(.invalidMessage, rule, location: "payload.\(name)")
        }
        return value
    }
}
