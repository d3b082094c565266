public import ARVisSpec
import Foundation

extension SIMD3 where Scalar == Double {
    /// The dot product.
    public func dot(_ other: Vec3) -> Double { (self * other).sum() }

    /// The cross product.
    public func cross(_ other: Vec3) -> Vec3 {
        Vec3(y * other.z - z * other.y, z * other.x - x * other.z, x * other.y - y * other.x)
    }

    /// The Euclidean length.
    public var length: Double { dot(self).squareRoot() }

    /// The vector scaled to length 1 (zero stays zero).
    public var normalized: Vec3 {
        let length = self.length
        return length > 0 ? self / length : self
    }
}

/// A rotation as a unit quaternion `(x, y, z, w)`, `w` the scalar part.
///
/// ```swift
/// let yaw = Rotation(axis: Vec3(0, 1, 0), angle: .pi / 2)
/// yaw.apply(Vec3(0, 0, -1))   // ≈ (-1, 0, 0)
/// ```
public struct Rotation: Sendable, Hashable {
    /// The quaternion's vector part (x, y, z) and scalar part (w).
    public var x, y, z, w: Double

    /// Creates a rotation from quaternion components, normalising them (a zero quaternion is the identity).
    public init(x: Double, y: Double, z: Double, w: Double) {
        let norm = (x * x + y * y + z * z + w * w).squareRoot()
        if norm > 0 && norm.isFinite {
            (self.x, self.y, self.z, self.w) = (x / norm, y / norm, z / norm, w / norm)
        } else {
            (self.x, self.y, self.z, self.w) = (0, 0, 0, 1)
        }
    }

    /// A rotation from components already of unit length (a decoded packet's), without normalising.
    init(unit x: Double, _ y: Double, _ z: Double, _ w: Double) {
        (self.x, self.y, self.z, self.w) = (x, y, z, w)
    }

    /// No rotation.
    public static let identity = Rotation(x: 0, y: 0, z: 0, w: 1)

    /// A rotation of `angle` radians about `axis` (right-handed).
    public init(axis: Vec3, angle: Double) {
        let unit = axis.normalized
        let half = angle / 2
        let sine = sin(half)
        self.init(x: unit.x * sine, y: unit.y * sine, z: unit.z * sine, w: cos(half))
    }

    /// The vector part.
    public var vector: Vec3 { Vec3(x, y, z) }

    /// The inverse rotation.
    public var inverse: Rotation { Rotation(x: -x, y: -y, z: -z, w: w) }

    /// `self` after `other`: rotating by the result equals rotating by `other`, then by `self`.
    public func concatenating(_ other: Rotation) -> Rotation {
        Rotation(
            x: w * other.x + x * other.w + y * other.z - z * other.y,
            y: w * other.y - x * other.z + y * other.w + z * other.x,
            z: w * other.z + x * other.y - y * other.x + z * other.w,
            w: w * other.w - x * other.x - y * other.y - z * other.z)
    }

    /// Rotates a vector.
    public func apply(_ vector: Vec3) -> Vec3 {
        let u = self.vector
        let t = 2 * u.cross(vector)
        return vector + w * t + u.cross(t)
    }

    /// The rotation angle in radians, 0…π.
    public var angle: Double { 2 * atan2(vector.length, abs(w)) }

    /// The angle in radians between two rotations.
    public func angle(to other: Rotation) -> Double { other.concatenating(inverse).angle }

    /// The rotation as a 3×3 matrix, rows.
    public var matrix: [[Double]] {
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
        ]
    }

    /// The rotation of a 3×3 rotation matrix given by rows (Shepperd's method, stable for every angle).
    public init(matrix m: [[Double]]) {
        let trace = m[0][0] + m[1][1] + m[2][2]
        if trace > 0 {
            let s = (trace + 1).squareRoot() * 2
            self.init(x: (m[2][1] - m[1][2]) / s, y: (m[0][2] - m[2][0]) / s, z: (m[1][0] - m[0][1]) / s, w: s / 4)
        } else if m[0][0] > m[1][1] && m[0][0] > m[2][2] {
            let s = (1 + m[0][0] - m[1][1] - m[2][2]).squareRoot() * 2
            self.init(x: s / 4, y: (m[0][1] + m[1][0]) / s, z: (m[0][2] + m[2][0]) / s, w: (m[2][1] - m[1][2]) / s)
        } else if m[1][1] > m[2][2] {
            let s = (1 + m[1][1] - m[0][0] - m[2][2]).squareRoot() * 2
            self.init(x: (m[0][1] + m[1][0]) / s, y: s / 4, z: (m[1][2] + m[2][1]) / s, w: (m[0][2] - m[2][0]) / s)
        } else {
            let s = (1 + m[2][2] - m[0][0] - m[1][1]).squareRoot() * 2
            self.init(x: (m[0][2] + m[2][0]) / s, y: (m[1][2] + m[2][1]) / s, z: s / 4, w: (m[1][0] - m[0][1]) / s)
        }
    }

    /// SceneKit's `eulerAngles` (pitch about x, yaw about y, roll about z, radians), which SceneKit applies
    /// roll first, then yaw, then pitch: `R = Rx(pitch) · Ry(yaw) · Rz(roll)`.
    public init(sceneKitEuler euler: Vec3) {
        let pitch = Rotation(axis: Vec3(1, 0, 0), angle: euler.x)
        let yaw = Rotation(axis: Vec3(0, 1, 0), angle: euler.y)
        let roll = Rotation(axis: Vec3(0, 0, 1), angle: euler.z)
        self = pitch.concatenating(yaw).concatenating(roll)
    }

    /// The SceneKit Euler angles of the rotation (pitch in −π/2…π/2 away from gimbal lock).
    public var sceneKitEuler: Vec3 {
        let m = matrix
        // R = Rx·Ry·Rz: m[0][2] = sin(yaw); m[0][0] = cos(yaw)cos(roll); m[0][1] = −cos(yaw)sin(roll);
        // m[1][2] = −sin(pitch)cos(yaw); m[2][2] = cos(pitch)cos(yaw).
        let sinYaw = max(-1, min(1, m[0][2]))
        let yaw = asin(sinYaw)
        if abs(sinYaw) < 0.999_999_999 {
            return Vec3(atan2(-m[1][2], m[2][2]), yaw, atan2(-m[0][1], m[0][0]))
        }
        // Gimbal lock: only pitch ± roll is defined; put it all in pitch.
        return Vec3(atan2(m[2][1], m[1][1]), yaw, 0)
    }

    /// Spherical linear interpolation from `self` (t = 0) to `other` (t = 1) along the shorter arc.
    public func slerp(to other: Rotation, t: Double) -> Rotation {
        var target = other
        var cosine = x * other.x + y * other.y + z * other.z + w * other.w
        if cosine < 0 {
            target = Rotation(x: -other.x, y: -other.y, z: -other.z, w: -other.w)
            cosine = -cosine
        }
        if cosine > 0.9995 {
            return Rotation(
                x: x + (target.x - x) * t, y: y + (target.y - y) * t, z: z + (target.z - z) * t,
                w: w + (target.w - w) * t)
        }
        let angle = acos(cosine)
        let a = sin((1 - t) * angle) / sin(angle)
        let b = sin(t * angle) / sin(angle)
        return Rotation(
            x: a * x + b * target.x, y: a * y + b * target.y, z: a * z + b * target.z, w: a * w + b * target.w)
    }
}
