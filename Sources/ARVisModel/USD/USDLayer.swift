/// A USD layer as both readers give it: every spec by its path, with its fields. The crate
/// reader and the text reader produce it; ``USDStageReader`` turns it into a ``Model``.
struct USDLayer {
    /// A spec's kind (`SdfSpecType`).
    enum SpecType: UInt32 {
        case unknown = 0
        case attribute, connection, expression, mapper, mapperArg, prim, pseudoRoot, relationship, relationshipTarget,
            variant, variantSet
    }

    /// One spec: its kind and its fields by name.
    struct Spec {
        var type: SpecType
        var fields: [String: USDValue] = [:]
    }

    /// Every spec by absolute path: `/`, `/Root/Mesh`, `/Root/Mesh.points`.
    var specs: [String: Spec] = [:]

    /// The pseudo-root's field `name`.
    func layerField(_ name: String) -> USDValue? { specs["/"]?.fields[name] }
}

/// A field value as the readers decode it. Numbers of every width become `Double` (exact for every
/// 32-bit integer and float); vectors, quaternions and matrices keep their components in file order.
indirect enum USDValue {
    case bool(Bool)
    case number(Double)
    case token(String)
    case string(String)
    case asset(String)
    /// One vector, quaternion or matrix (row-major), its components in order.
    case vector([Double])
    /// An array of numbers or vectors: `width` components per element, flattened.
    case numbers([Double], width: Int)
    /// An array of tokens, strings or asset paths; also a list op's items.
    case strings([String])
    /// Target or connection paths.
    case paths([String])
    case dictionary([String: USDValue])
    /// Values at times; readers of geometry use the earliest.
    case timeSamples([(time: Double, value: USDValue)])
    /// A value ARVis does not interpret (a payload, a spline, a reference list).
    case other

    var number: Double? {
        switch self {
        case .number(let value): value
        case .bool(let value): value ? 1 : 0
        case .vector(let values) where values.count == 1: values[0]
        case .timeSamples(let samples): samples.first?.value.number
        default: nil
        }
    }

    /// The text of a token, string or asset path.
    var text: String? {
        switch self {
        case .token(let value), .string(let value), .asset(let value): value
        case .strings(let values) where values.count == 1: values[0]
        case .timeSamples(let samples): samples.first?.value.text
        default: nil
        }
    }

    var strings: [String]? {
        switch self {
        case .strings(let values), .paths(let values): values
        case .token(let value), .string(let value), .asset(let value): [value]
        default: nil
        }
    }

    /// The components of a vector or numeric array, flattened; the earliest sample of animated values.
    var components: [Double]? {
        switch self {
        case .vector(let values), .numbers(let values, _): values
        case .number(let value): [value]
        case .timeSamples(let samples): samples.first?.value.components
        default: nil
        }
    }
}
