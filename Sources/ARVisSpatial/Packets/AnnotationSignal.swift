public import ARVisSpec
public import ARVisSupport
import Foundation

/// A remote annotation request: where the viewer tapped, and the point the OpenTok sample computed.
///
/// Two wire forms:
/// - the OpenTok sample's `"x:y:z:tapX:tapY"`, parsed strictly (exactly five finite numbers; tap in the
///   subscriber's view points);
/// - its JSON successor, `{"type": "annotate", "frame": 42, "tap": [0.5, 0.25]}`, with the tap normalised
///   to the video frame (0…1 from the top-left) and the frame whose pose it refers to.
public struct AnnotationSignal: Sendable, Hashable, Codable {
    /// The tap, normalised to the frame (JSON form) or in subscriber points (legacy form).
    public var tap: SIMD2<Double>
    /// The frame the tap was made on, when known.
    public var frame: UInt32?
    /// The legacy form's point (the subscriber camera's front × 2, without its position).
    public var legacyPoint: Vec3?

    /// Creates a signal with a normalised tap.
    public init(tap: SIMD2<Double>, frame: UInt32?) {
        self.tap = tap
        self.frame = frame
    }

    /// Parses the OpenTok sample's `x:y:z:tapX:tapY`.
    /// - Throws: ``SpatialError`` `malformedSignal` unless the text is exactly five finite numbers.
    public init(legacy text: String) throws(SpatialError) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 5 else {
            throw SpatialError(
                .malformedSignal,
                "an annotation signal is x:y:z:tapX:tapY, five numbers; got \(parts.count) field\(parts.count == 1 ? "" : "s")"
            )
        }
        var numbers: [Double] = []
        for (index, part) in parts.enumerated() {
            guard let number = Double(part), number.isFinite, !part.contains(where: \.isWhitespace) else {
                throw SpatialError(
                    .malformedSignal, "field \(index + 1) of the annotation signal, \"\(part)\", is not a finite number"
                )
            }
            numbers.append(number)
        }
        self.init(tap: SIMD2(numbers[3], numbers[4]), frame: nil)
        legacyPoint = Vec3(numbers[0], numbers[1], numbers[2])
    }

    private enum CodingKeys: String, CodingKey { case type, frame, tap }

    /// Reads the JSON form.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard try container.decode(String.self, forKey: .type) == "annotate" else {
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: container, debugDescription: "expected \"annotate\"")
        }
        let tap = try container.decode([Double].self, forKey: .tap)
        guard tap.count == 2, tap.allSatisfy({ $0.isFinite && $0 >= 0 && $0 <= 1 }) else {
            throw DecodingError.dataCorruptedError(
                forKey: .tap, in: container, debugDescription: "tap is [x, y], each 0…1")
        }
        self.init(tap: SIMD2(tap[0], tap[1]), frame: try container.decodeIfPresent(UInt32.self, forKey: .frame))
    }

    /// Writes the JSON form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("annotate", forKey: .type)
        try container.encodeIfPresent(frame, forKey: .frame)
        try container.encode([tap.x, tap.y], forKey: .tap)
    }
}
