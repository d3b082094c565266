/// The integer POSITION values a decoder's predictions look at (texture coordinates and normals are
/// predicted from the mesh's shape).
struct DracoPositions {
    /// Three components per value.
    var values: [Int32]
    /// The value of each point.
    var pointValues: [Int32]
}

/// Draco's mesh prediction schemes (`prediction_schemes/`): each value predicted from values decoded
/// before it, through the mesh's corners, then corrected.
struct DracoPrediction<T: DracoCorners> {
    let table: T
    let sequence: DracoSequence
    let positions: DracoPositions?
    let components: Int
    let buffer: DracoBuffer

    /// The values of `corrections` predicted by `method` through `transform`, reading the scheme's
    /// data (`method` 0 difference, 1 parallelogram, 4 constrained multi-parallelogram, 5 portable
    /// texture coordinates, 6 geometric normal).
    func decode(_ corrections: [UInt32], method: Int8, transform kind: Int8, reading buffer: inout DracoBuffer)
        throws(DracoFailure) -> [Int32]
    {
        let octahedral = kind == 3
        // A method that cannot go with the transform is the difference scheme, as in Draco.
        let effective = (method == 6) == octahedral ? method : 0
        switch effective {
        case 0:
            return try DracoPredictionTransform(reading: &buffer, kind: kind).undoDifferences(
                corrections, components: components)
        case 1:
            let transform = try DracoPredictionTransform(reading: &buffer, kind: kind)
            return try parallelogram(corrections, transform)
        case 4:
            var flags = [[Bool]]()
            for _ in 0..<4 {
                let count = try buffer.count("the crease flag count")
                guard count <= table.cornerCount else {
                    throw buffer.failure("\(count) crease flags for \(table.cornerCount) corners")
                }
                if count > 0 {
                    var bits = try RAnsBitDecoder(reading: &buffer)
                    flags.append((0..<count).map { _ in bits.next() })
                } else {
                    flags.append([])
                }
            }
            let transform = try DracoPredictionTransform(reading: &buffer, kind: kind)
            return try multiParallelogram(corrections, transform, creases: flags)
        case 5:
            let count = Int(Int32(bitPattern: try buffer.uint32("the orientation count")))
            guard count >= 0, count <= sequence.pointIDs.count else {
                throw buffer.failure("\(count) texture orientations")
            }
            var bits = try RAnsBitDecoder(reading: &buffer)
            var orientations = [Bool]()
            var last = true
            for _ in 0..<count {
                if !bits.next() { last.toggle() }
                orientations.append(last)
            }
            let transform = try DracoPredictionTransform(reading: &buffer, kind: kind)
            return try textureCoordinates(corrections, transform, orientations: orientations)
        case 6:
            let transform = try DracoPredictionTransform(reading: &buffer, kind: kind)
            var flips = try RAnsBitDecoder(reading: &buffer)
            guard case .octahedron(let octahedron) = transform else {
                throw buffer.failure("a geometric normal without octahedral coordinates")
            }
            return try geometricNormals(corrections, transform, octahedron, flips: &flips)
        default:
            throw buffer.failure("prediction method \(method), which Draco's encoders no longer write")
        }
    }

    // MARK: Helpers

    /// Copies value `index` of `values` into `prediction`.
    private func copy(_ values: [Int32], _ index: Int, into prediction: inout [Int32]) {
        for c in 0..<components { prediction[c] = values[index * components + c] }
    }

    private func valueOf(vertexAt corner: Int) -> Int {
        let vertex = table.vertex(corner)
        guard vertex >= 0, vertex < sequence.vertexValues.count else { return Int.max }
        let value = Int(sequence.vertexValues[vertex])
        return value < 0 ? Int.max : value
    }

    /// Writes into `prediction` the parallelogram across the edge opposite `corner`, when its three
    /// vertices come before `p`; returns whether it did.
    private func parallelogram(_ p: Int, across corner: Int, _ values: [Int32], into prediction: inout [Int32]) -> Bool
    {
        let opposite = table.opposite(corner)
        guard opposite >= 0 else { return false }
        let o = valueOf(vertexAt: opposite)
        let n = valueOf(vertexAt: T.next(opposite))
        let q = valueOf(vertexAt: T.previous(opposite))
        guard o < p, n < p, q < p else { return false }
        for c in 0..<components {
            prediction[c] = Int32(
                truncatingIfNeeded: Int64(values[n * components + c]) + Int64(values[q * components + c])
                    - Int64(values[o * components + c]))
        }
        return true
    }

    private func corner(of value: Int) -> Int { Int(sequence.valueCorners[value]) }

    // MARK: Schemes

    private func parallelogram(_ corrections: [UInt32], _ transform: DracoPredictionTransform) throws(DracoFailure)
        -> [Int32]
    {
        var values = [Int32](repeating: 0, count: corrections.count)
        let count = corrections.count / components
        guard count == sequence.valueCorners.count else { throw buffer.failure("values and traversal disagree") }
        var prediction = [Int32](repeating: 0, count: components)
        for p in 0..<count {
            if p > 0, !parallelogram(p, across: corner(of: p), values, into: &prediction) {
                copy(values, p - 1, into: &prediction)
            }
            transform.restore(prediction, corrections, into: &values, at: p * components)
        }
        return values
    }

    private func multiParallelogram(_ corrections: [UInt32], _ transform: DracoPredictionTransform, creases: [[Bool]])
        throws(DracoFailure) -> [Int32]
    {
        var values = [Int32](repeating: 0, count: corrections.count)
        let count = corrections.count / components
        guard count == sequence.valueCorners.count else { throw buffer.failure("values and traversal disagree") }
        var read = [0, 0, 0, 0]
        var prediction = [Int32](repeating: 0, count: components)
        // Up to four parallelograms, one after another, and their sum.
        var found = [Int32](repeating: 0, count: 4 * components)
        var one = [Int32](repeating: 0, count: components)
        var sum = [Int32](repeating: 0, count: components)
        for p in 0..<count {
            if p > 0 {
                let start = corner(of: p)
                var foundCount = 0
                var corner = start
                var leftwards = true
                var steps = 0
                while corner >= 0, steps <= table.cornerCount {
                    steps += 1
                    if parallelogram(p, across: corner, values, into: &one) {
                        for c in 0..<components { found[foundCount * components + c] = one[c] }
                        foundCount += 1
                        if foundCount == 4 { break }
                    }
                    corner = leftwards ? table.swingLeft(corner) : table.swingRight(corner)
                    if corner == start { break }
                    if corner < 0, leftwards {
                        leftwards = false
                        corner = table.swingRight(start)
                    }
                }
                var used: Int32 = 0
                for c in 0..<components { sum[c] = 0 }
                for k in 0..<foundCount {
                    let context = foundCount - 1
                    guard read[context] < creases[context].count else { throw buffer.failure("too few crease flags") }
                    let crease = creases[context][read[context]]
                    read[context] += 1
                    if !crease {
                        used += 1
                        for c in 0..<components { sum[c] &+= found[k * components + c] }
                    }
                }
                if used == 0 {
                    copy(values, p - 1, into: &prediction)
                } else {
                    for c in 0..<components { prediction[c] = sum[c] / used }
                }
            }
            transform.restore(prediction, corrections, into: &values, at: p * components)
        }
        return values
    }

    /// The POSITION integers of value `index` of this decoder.
    private func position(ofValue index: Int) throws(DracoFailure) -> (Int64, Int64, Int64) {
        guard let positions, index >= 0, index < sequence.pointIDs.count else {
            throw buffer.failure("a prediction without positions")
        }
        let point = Int(sequence.pointIDs[index])
        guard point < positions.pointValues.count else { throw buffer.failure("a point without a position") }
        let value = Int(positions.pointValues[point])
        guard value >= 0, 3 * value + 2 < positions.values.count else {
            throw buffer.failure("a point without a position")
        }
        return (
            Int64(positions.values[3 * value]), Int64(positions.values[3 * value + 1]),
            Int64(positions.values[3 * value + 2])
        )
    }

    private func textureCoordinates(
        _ corrections: [UInt32], _ transform: DracoPredictionTransform, orientations: [Bool]
    )
        throws(DracoFailure) -> [Int32]
    {
        guard components == 2 else { throw buffer.failure("texture coordinates of \(components) components") }
        var orientations = orientations
        var values = [Int32](repeating: 0, count: corrections.count)
        let count = corrections.count / 2
        guard count == sequence.valueCorners.count else { throw buffer.failure("values and traversal disagree") }
        for p in 0..<count {
            let c = corner(of: p)
            let next = valueOf(vertexAt: T.next(c))
            let previous = valueOf(vertexAt: T.previous(c))
            var prediction: [Int32]?
            if previous < p, next < p {
                let nextUV = (Int64(values[2 * next]), Int64(values[2 * next + 1]))
                let previousUV = (Int64(values[2 * previous]), Int64(values[2 * previous + 1]))
                if nextUV == previousUV {
                    prediction = [Int32(truncatingIfNeeded: previousUV.0), Int32(truncatingIfNeeded: previousUV.1)]
                } else {
                    prediction = try projected(
                        tip: try position(ofValue: p), next: try position(ofValue: next),
                        previous: try position(ofValue: previous),
                        nextUV: nextUV, previousUV: previousUV, orientations: &orientations)
                }
            }
            if prediction == nil {
                // As Draco: the next corner's value when decoded, else the value before (never the
                // previous corner's alone).
                let fallback = next < p ? next : p - 1
                prediction = fallback >= 0 ? [values[2 * fallback], values[2 * fallback + 1]] : [0, 0]
            }
            transform.restore(prediction ?? [0, 0], corrections, into: &values, at: 2 * p)
        }
        return values
    }

    /// The texture coordinate of `tip` from the triangle's other two corners, projected in integers
    /// (`mesh_prediction_scheme_tex_coords_portable_predictor.h`); nil when the two coincide.
    private func projected(
        tip: (Int64, Int64, Int64), next: (Int64, Int64, Int64), previous: (Int64, Int64, Int64),
        nextUV: (Int64, Int64), previousUV: (Int64, Int64), orientations: inout [Bool]
    ) throws(DracoFailure) -> [Int32]? {
        let pn = (previous.0 &- next.0, previous.1 &- next.1, previous.2 &- next.2)
        let squared = pn.0 &* pn.0 &+ pn.1 &* pn.1 &+ pn.2 &* pn.2
        guard squared != 0 else { return nil }
        let cn = (tip.0 &- next.0, tip.1 &- next.1, tip.2 &- next.2)
        let dot = pn.0 &* cn.0 &+ pn.1 &* cn.1 &+ pn.2 &* cn.2
        let uv = (previousUV.0 &- nextUV.0, previousUV.1 &- nextUV.1)
        let overflow = buffer.failure("a texture coordinate prediction that overflows")
        guard max(nextUV.0.magnitude, nextUV.1.magnitude) <= UInt64(Int64.max) / squared.magnitude else {
            throw overflow
        }
        let uvMaximum = max(uv.0.magnitude, uv.1.magnitude)
        guard uvMaximum == 0 || dot.magnitude <= UInt64(Int64.max) / uvMaximum else { throw overflow }
        let x = (nextUV.0 &* squared &+ dot &* uv.0, nextUV.1 &* squared &+ dot &* uv.1)
        let pnMaximum = max(pn.0.magnitude, pn.1.magnitude, pn.2.magnitude)
        guard pnMaximum == 0 || dot.magnitude <= UInt64(Int64.max) / pnMaximum else { throw overflow }
        let foot = (
            next.0 &+ (dot &* pn.0) / squared, next.1 &+ (dot &* pn.1) / squared, next.2 &+ (dot &* pn.2) / squared
        )
        let away = (tip.0 &- foot.0, tip.1 &- foot.1, tip.2 &- foot.2)
        let distance = UInt64(bitPattern: away.0 &* away.0 &+ away.1 &* away.1 &+ away.2 &* away.2)
        let root = Int64(bitPattern: Self.integerSquareRoot(distance &* UInt64(bitPattern: squared)))
        let across = (uv.1 &* root, (0 &- uv.0) &* root)
        guard let clockwise = orientations.popLast() else { throw buffer.failure("too few texture orientations") }
        let sum =
            clockwise
            ? (
                UInt64(bitPattern: x.0) &+ UInt64(bitPattern: across.0),
                UInt64(bitPattern: x.1) &+ UInt64(bitPattern: across.1)
            )
            : (
                UInt64(bitPattern: x.0) &- UInt64(bitPattern: across.0),
                UInt64(bitPattern: x.1) &- UInt64(bitPattern: across.1)
            )
        return [
            Int32(truncatingIfNeeded: Int64(bitPattern: sum.0) / squared),
            Int32(truncatingIfNeeded: Int64(bitPattern: sum.1) / squared),
        ]
    }

    /// Draco's integer square root (`core/math_utils.h`).
    static func integerSquareRoot(_ number: UInt64) -> UInt64 {
        guard number > 0 else { return 0 }
        var root: UInt64 = 1
        var rest = number
        while rest >= 2 {
            root &*= 2
            rest /= 4
        }
        var rounds = 0
        repeat {
            root = (root &+ number / root) / 2
            rounds += 1
        } while root &* root > number && root > 0 && rounds < 64
        return root
    }

    private func geometricNormals(
        _ corrections: [UInt32], _ transform: DracoPredictionTransform, _ octahedron: DracoOctahedron,
        flips: inout RAnsBitDecoder
    ) throws(DracoFailure) -> [Int32] {
        guard components == 2 else { throw buffer.failure("octahedral normals of \(components) components") }
        var values = [Int32](repeating: 0, count: corrections.count)
        let count = corrections.count / 2
        guard count == sequence.valueCorners.count else { throw buffer.failure("values and traversal disagree") }
        var prediction: [Int32] = [0, 0]
        // Every value's position once: each is read around about six vertices.
        var known = [Int64]()
        known.reserveCapacity(3 * count)
        for value in 0..<count {
            let position = try self.position(ofValue: value)
            known += [position.0, position.1, position.2]
        }
        func position(ofValue value: Int) throws(DracoFailure) -> (Int64, Int64, Int64) {
            guard value < count else { throw buffer.failure("a prediction without positions") }
            return (known[3 * value], known[3 * value + 1], known[3 * value + 2])
        }
        for p in 0..<count {
            let start = corner(of: p)
            let center = try position(ofValue: valueOf(vertexAt: start))
            var normal: (Int64, Int64, Int64) = (0, 0, 0)
            try table.forEachCorner(around: start) { (around) throws(DracoFailure) in
                let a = try position(ofValue: valueOf(vertexAt: T.next(around)))
                let b = try position(ofValue: valueOf(vertexAt: T.previous(around)))
                let dn = (a.0 &- center.0, a.1 &- center.1, a.2 &- center.2)
                let dp = (b.0 &- center.0, b.1 &- center.1, b.2 &- center.2)
                normal.0 &+= dn.1 &* dp.2 &- dn.2 &* dp.1
                normal.1 &+= dn.2 &* dp.0 &- dn.0 &* dp.2
                normal.2 &+= dn.0 &* dp.1 &- dn.1 &* dp.0
            }
            let bound: Int64 = 1 << 29
            let (sum01, overflow01) = Int64(clamping: normal.0.magnitude).addingReportingOverflow(
                Int64(clamping: normal.1.magnitude))
            let (total, overflow) = sum01.addingReportingOverflow(Int64(clamping: normal.2.magnitude))
            let magnitude = overflow01 || overflow ? Int64.max : total
            if magnitude > bound {
                let quotient = magnitude / bound
                normal = (normal.0 / quotient, normal.1 / quotient, normal.2 / quotient)
            }
            var vector = octahedron.canonical(
                (
                    Int32(truncatingIfNeeded: normal.0), Int32(truncatingIfNeeded: normal.1),
                    Int32(truncatingIfNeeded: normal.2)
                ))
            if flips.next() { vector = (0 &- vector.0, 0 &- vector.1, 0 &- vector.2) }
            let coordinates = octahedron.coordinates(of: vector)
            prediction[0] = coordinates.0
            prediction[1] = coordinates.1
            transform.restore(prediction, corrections, into: &values, at: 2 * p)
        }
        return values
    }
}
