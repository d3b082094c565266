import ARVisSpatial
import ARVisSpec
import ARVisSupport
import Foundation

extension USDStageReader {
    /// The prim's local transform: the product of its `xformOpOrder` operations, first to last.
    func localTransform(_ path: String) throws(ModelError) -> Matrix4 {
        guard let order = field(path + ".xformOpOrder", "default")?.strings else { return .identity }
        var result = Matrix4.identity
        for var op in order {
            if op == "!resetXformStack!" { continue }
            let inverted = op.hasPrefix("!invert!")
            if inverted { op.removeFirst("!invert!".count) }
            let attribute = path + "." + op
            guard let values = field(attribute, "default")?.components ?? field(attribute, "timeSamples")?.components
            else {
                throw ModelError(.invalid, "xformOpOrder names \(op), which has no value", location: path)
            }
            var matrix = try Self.matrix(of: op, values, location: attribute)
            if inverted {
                guard let inverse = matrix.inverse else {
                    throw ModelError(.invalid, "an inverted operation is not invertible", location: attribute)
                }
                matrix = inverse
            }
            result = result * matrix
        }
        return result
    }

    /// One transform operation as a matrix (angles in degrees, quaternions real part first).
    static func matrix(of op: String, _ v: [Double], location: String) throws(ModelError) -> Matrix4 {
        let kind = op.split(separator: ":").dropFirst().first.map(String.init) ?? ""
        func need(_ count: Int) throws(ModelError) {
            guard v.count == count, v.allSatisfy(\.isFinite) else {
                throw ModelError(.invalid, "\(kind) takes \(count) finite numbers", location: location)
            }
        }
        switch kind {
        case "translate":
            try need(3)
            return Matrix4(columns: [
                SIMD4(1, 0, 0, 0), SIMD4(0, 1, 0, 0), SIMD4(0, 0, 1, 0), SIMD4(v[0], v[1], v[2], 1),
            ])
        case "scale":
            try need(3)
            return Matrix4(columns: [
                SIMD4(v[0], 0, 0, 0), SIMD4(0, v[1], 0, 0), SIMD4(0, 0, v[2], 0), SIMD4(0, 0, 0, 1),
            ])
        case "transform":
            try need(16)
            return Matrix4(columnMajor: v)!
        case "orient":
            try need(4)
            return rotation(Rotation(x: v[1], y: v[2], z: v[3], w: v[0]))
        case "rotateX", "rotateY", "rotateZ":
            try need(1)
            return axisRotation(kind.last!, degrees: v[0])
        default:
            guard kind.hasPrefix("rotate"), kind.count == 9 else {
                throw ModelError(.unsupported, "the transform operation \(kind) is not known", location: location)
            }
            try need(3)
            // rotateXYZ turns about X first, then Y, then Z: M = Rz · Ry · Rx.
            var result = Matrix4.identity
            for (axis, angle) in zip(kind.dropFirst(6), v) {
                guard "XYZ".contains(axis) else {
                    throw ModelError(.unsupported, "the transform operation \(kind) is not known", location: location)
                }
                result = axisRotation(axis, degrees: angle) * result
            }
            return result
        }
    }

    static func axisRotation(_ axis: Character, degrees: Double) -> Matrix4 {
        let vector: Vec3 = axis == "X" ? Vec3(1, 0, 0) : axis == "Y" ? Vec3(0, 1, 0) : Vec3(0, 0, 1)
        return rotation(Rotation(axis: vector, angle: degrees * .pi / 180))
    }

    static func rotation(_ rotation: Rotation) -> Matrix4 {
        let m = rotation.matrix
        return Matrix4(columns: [
            SIMD4(m[0][0], m[1][0], m[2][0], 0), SIMD4(m[0][1], m[1][1], m[2][1], 0),
            SIMD4(m[0][2], m[1][2], m[2][2], 0), SIMD4(0, 0, 0, 1),
        ])
    }
}
