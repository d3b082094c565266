/// How a prediction and a correction make a value (`prediction_scheme_wrap_*` and
/// `prediction_scheme_normal_octahedron_canonicalized_*` in Draco). All arithmetic wraps as Draco's
/// does, so a damaged stream gives wrong values, never a trap.
enum DracoPredictionTransform {
    /// Values kept in `minimum...maximum`, wrapping around it.
    case wrap(minimum: Int32, maximum: Int32)
    /// Octahedral coordinates of `maximum` (odd) quantized values, rotated to the predicted one's
    /// canonical quadrant.
    case octahedron(DracoOctahedron)

    /// Reads the transform's parameters: `kind` 1 wrap, 3 canonicalized octahedron.
    init(reading buffer: inout DracoBuffer, kind: Int8) throws(DracoFailure) {
        let first = Int32(bitPattern: try buffer.uint32("the transform's first parameter"))
        let second = Int32(bitPattern: try buffer.uint32("the transform's second parameter"))
        if kind == 1 {
            guard first <= second, Int64(second) - Int64(first) < Int64(Int32.max) else {
                throw buffer.failure("a wrap range \(first)…\(second)")
            }
            self = .wrap(minimum: first, maximum: second)
        } else {
            guard first > 0, first & 1 == 1 else { throw buffer.failure("an octahedral maximum of \(first), not odd") }
            self = .octahedron(try DracoOctahedron(bits: Int(32 - UInt32(first).leadingZeroBitCount), buffer: buffer))
        }
    }

    /// The values of `corrections` (`components` per value) each predicted by the value before it,
    /// the first by zeros (Draco's difference scheme).
    func undoDifferences(_ corrections: [UInt32], components: Int) -> [Int32] {
        var values = [Int32](repeating: 0, count: corrections.count)
        var prediction = [Int32](repeating: 0, count: components)
        var start = 0
        while start + components <= corrections.count {
            restore(prediction, corrections, into: &values, at: start)
            for c in 0..<components { prediction[c] = values[start + c] }
            start += components
        }
        return values
    }

    /// Writes the value at `start` of `values` (as many components as `prediction`): its prediction
    /// corrected by the correction at the same place of `corrections`. Nothing is allocated (it runs
    /// for every value).
    func restore(_ prediction: [Int32], _ corrections: [UInt32], into values: inout [Int32], at start: Int) {
        switch self {
        case .wrap(let minimum, let maximum):
            let span = maximum &- minimum &+ 1
            for c in prediction.indices {
                var value = min(max(prediction[c], minimum), maximum) &+ Int32(bitPattern: corrections[start + c])
                if value > maximum { value = value &- span } else if value < minimum { value = value &+ span }
                values[start + c] = value
            }
        case .octahedron(let octahedron):
            guard prediction.count == 2 else {
                for c in prediction.indices { values[start + c] = prediction[c] }
                return
            }
            let value = octahedron.original(
                (prediction[0], prediction[1]),
                (Int32(bitPattern: corrections[start]), Int32(bitPattern: corrections[start + 1])))
            values[start] = value.0
            values[start + 1] = value.1
        }
    }
}

/// Draco's octahedral normals: quantized (s, t) coordinates to unit vectors, and the canonicalized
/// prediction transform over them (`normal_compression_utils.h`).
struct DracoOctahedron {
    private let maximumQuantized: Int32
    private let center: Int32
    private let scale: Float

    /// Coordinates of `bits` bits (2 to 30).
    init(bits: Int, buffer: DracoBuffer) throws(DracoFailure) {
        guard (2...30).contains(bits) else { throw buffer.failure("octahedral coordinates of \(bits) bits (2 to 30)") }
        maximumQuantized = (1 << Int32(bits)) - 1
        center = (maximumQuantized - 1) / 2
        scale = 2 / Float(maximumQuantized - 1)
    }

    /// Reads the coordinates' bit count.
    init(reading buffer: inout DracoBuffer) throws(DracoFailure) {
        try self.init(bits: Int(try buffer.uint8("the normals' bit count")), buffer: buffer)
    }

    /// Unit vectors (x, y, z) from (s, t) pairs.
    func unitVectors(_ coordinates: [Int32]) -> [Float] {
        var vectors = [Float]()
        vectors.reserveCapacity(coordinates.count / 2 * 3)
        var index = 0
        while index + 1 < coordinates.count {
            var y = Float(coordinates[index]) * scale - 1
            var z = Float(coordinates[index + 1]) * scale - 1
            let x = 1 - abs(y) - abs(z)
            let fold = max(-x, 0)
            y += y < 0 ? fold : -fold
            z += z < 0 ? fold : -fold
            let squared = x * x + y * y + z * z
            if squared < 1e-6 {
                vectors += [0, 0, 0]
            } else {
                let inverse = 1 / squared.squareRoot()
                vectors += [x * inverse, y * inverse, z * inverse]
            }
            index += 2
        }
        return vectors
    }

    /// `vector` scaled so its components' magnitudes add up to the centre value (`CanonicalizeIntegerVector`).
    func canonical(_ vector: (Int32, Int32, Int32)) -> (Int32, Int32, Int32) {
        let sum = Int64(vector.0.magnitude) + Int64(vector.1.magnitude) + Int64(vector.2.magnitude)
        guard sum > 0 else { return (center, 0, 0) }
        let x = Int64(vector.0) * Int64(center) / sum
        let y = Int64(vector.1) * Int64(center) / sum
        var z = Int64(center) - x.magnitude.asInt64 - y.magnitude.asInt64
        if vector.2 < 0 { z = -z }
        return (Int32(truncatingIfNeeded: x), Int32(truncatingIfNeeded: y), Int32(truncatingIfNeeded: z))
    }

    /// The octahedral coordinates of a canonical integer vector, canonicalized on the square's edges
    /// (`IntegerVectorToQuantizedOctahedralCoords`).
    func coordinates(of vector: (Int32, Int32, Int32)) -> (Int32, Int32) {
        let last = maximumQuantized - 1
        var s: Int32
        var t: Int32
        if vector.0 >= 0 {
            s = vector.1 &+ center
            t = vector.2 &+ center
        } else {
            s =
                vector.1 < 0
                ? Int32(truncatingIfNeeded: vector.2.magnitude) : last &- Int32(truncatingIfNeeded: vector.2.magnitude)
            t =
                vector.2 < 0
                ? Int32(truncatingIfNeeded: vector.1.magnitude) : last &- Int32(truncatingIfNeeded: vector.1.magnitude)
        }
        if (s == 0 && t == 0) || (s == 0 && t == last) || (s == last && t == 0) {
            (s, t) = (last, last)
        } else if s == 0 && t > center {
            t = center &- (t &- center)
        } else if s == last && t < center {
            t = center &+ (center &- t)
        } else if t == last && s < center {
            s = center &+ (center &- s)
        } else if t == 0 && s > center {
            s = center &- (s &- center)
        }
        return (s, t)
    }

    /// A value from its prediction and correction, both rotated into the prediction's quadrant.
    func original(_ prediction: (Int32, Int32), _ correction: (Int32, Int32)) -> (Int32, Int32) {
        var point = (prediction.0 &- center, prediction.1 &- center)
        let inDiamond = UInt32(point.0.magnitude) &+ UInt32(point.1.magnitude) <= UInt32(center)
        if !inDiamond { point = invertDiamond(point) }
        let bottomLeft = (point.0 == 0 && point.1 == 0) || (point.0 < 0 && point.1 <= 0)
        let turns = rotations(point)
        if !bottomLeft { point = rotate(point, turns) }
        var value = (wrapped(point.0 &+ correction.0), wrapped(point.1 &+ correction.1))
        if !bottomLeft { value = rotate(value, (4 - turns) % 4) }
        if !inDiamond { value = invertDiamond(value) }
        return (value.0 &+ center, value.1 &+ center)
    }

    private func wrapped(_ value: Int32) -> Int32 {
        value > center ? value &- maximumQuantized : value < -center ? value &+ maximumQuantized : value
    }

    private func rotations(_ point: (Int32, Int32)) -> Int {
        let (x, y) = point
        if x == 0 { return y == 0 ? 0 : y > 0 ? 3 : 1 }
        if x > 0 { return y >= 0 ? 2 : 1 }
        return y <= 0 ? 0 : 3
    }

    private func rotate(_ point: (Int32, Int32), _ turns: Int) -> (Int32, Int32) {
        let (x, y) = point
        switch turns {
        case 1: return (y, 0 &- x)
        case 2: return (0 &- x, 0 &- y)
        case 3: return (0 &- y, x)
        default: return point
        }
    }

    private func invertDiamond(_ point: (Int32, Int32)) -> (Int32, Int32) {
        let (s, t) = point
        let signs: (Int32, Int32) =
            s >= 0 && t >= 0 ? (1, 1) : s <= 0 && t <= 0 ? (-1, -1) : (s > 0 ? 1 : -1, t > 0 ? 1 : -1)
        let cornerS = UInt32(bitPattern: signs.0 &* center)
        let cornerT = UInt32(bitPattern: signs.1 &* center)
        var us = UInt32(bitPattern: s)
        var ut = UInt32(bitPattern: t)
        us = us &+ us &- cornerS
        ut = ut &+ ut &- cornerT
        if signs.0 &* signs.1 >= 0 { (us, ut) = (0 &- ut, 0 &- us) } else { swap(&us, &ut) }
        us = us &+ cornerS
        ut = ut &+ cornerT
        return (Int32(bitPattern: us) / 2, Int32(bitPattern: ut) / 2)
    }
}

/// Draco's quantized floats: the minimum of each component, the range, and the bit count
/// (`attribute_quantization_transform.cc`).
struct DracoQuantization {
    private let minimum: [Float]
    private let step: Float

    /// Reads the parameters of `components` components.
    init(reading buffer: inout DracoBuffer, components: Int) throws(DracoFailure) {
        var minimum = [Float]()
        for _ in 0..<components { minimum.append(try buffer.float32("a quantized component's minimum")) }
        let range = try buffer.float32("the quantization's range")
        let bits = Int(try buffer.uint8("the quantization's bit count"))
        guard (1...30).contains(bits) else { throw buffer.failure("quantization of \(bits) bits (1 to 30)") }
        self.minimum = minimum
        step = range / Float((1 << bits) - 1)
    }

    /// Floats from quantized values, one float32 product and one sum each, as Draco computes them.
    func dequantize(_ values: [Int32]) -> [Float] {
        values.enumerated().map { index, value in
            let product = Float(value) * step
            return product + minimum[index % minimum.count]
        }
    }
}

extension UInt64 {
    /// The value as an Int64, Int64.max when it does not fit.
    fileprivate var asInt64: Int64 { Int64(clamping: self) }
}
