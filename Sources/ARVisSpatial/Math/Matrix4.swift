public import ARVisSpec

/// A 4×4 matrix of doubles, stored column-major as glTF and SceneKit expect.
public struct Matrix4: Sendable, Hashable {
    /// The 16 entries, column by column: `columns[c][r]`.
    public var columns: [SIMD4<Double>]

    /// Creates a matrix from its four columns.
    public init(columns: [SIMD4<Double>]) {
        precondition(columns.count == 4, "a 4×4 matrix has four columns")
        self.columns = columns
    }

    /// The identity.
    public static let identity = Matrix4(columns: [
        SIMD4(1, 0, 0, 0), SIMD4(0, 1, 0, 0), SIMD4(0, 0, 1, 0), SIMD4(0, 0, 0, 1),
    ])

    /// The entry in `row`, `column`.
    public subscript(row: Int, column: Int) -> Double {
        get { columns[column][row] }
        set { columns[column][row] = newValue }
    }

    /// The 16 entries in column-major order (glTF's `matrix`).
    public var columnMajor: [Double] { columns.flatMap { [$0.x, $0.y, $0.z, $0.w] } }

    /// Creates a matrix from 16 column-major entries; `nil` if there are not 16.
    public init?(columnMajor values: [Double]) {
        guard values.count == 16 else { return nil }
        self.init(
            columns: (0..<4).map { SIMD4(values[$0 * 4], values[$0 * 4 + 1], values[$0 * 4 + 2], values[$0 * 4 + 3]) })
    }

    /// The product `self · other`.
    public static func * (lhs: Matrix4, rhs: Matrix4) -> Matrix4 {
        Matrix4(columns: rhs.columns.map { lhs * $0 })
    }

    /// The matrix applied to a column vector.
    public static func * (lhs: Matrix4, rhs: SIMD4<Double>) -> SIMD4<Double> {
        lhs.columns[0] * rhs.x + lhs.columns[1] * rhs.y + lhs.columns[2] * rhs.z + lhs.columns[3] * rhs.w
    }

    /// A point transformed (with the perspective divide when the last row is not 0 0 0 1).
    public func transformPoint(_ point: Vec3) -> Vec3 {
        let result = self * SIMD4(point.x, point.y, point.z, 1)
        return Vec3(result.x, result.y, result.z) / (result.w == 0 ? 1 : result.w)
    }

    /// The inverse, or `nil` for a singular matrix (cofactor expansion).
    public var inverse: Matrix4? {
        let m = columnMajor
        var inv = [Double](repeating: 0, count: 16)
        inv[0] =
            m[5] * m[10] * m[15] - m[5] * m[11] * m[14] - m[9] * m[6] * m[15] + m[9] * m[7] * m[14] + m[13] * m[6]
            * m[11] - m[13] * m[7] * m[10]
        inv[4] =
            -m[4] * m[10] * m[15] + m[4] * m[11] * m[14] + m[8] * m[6] * m[15] - m[8] * m[7] * m[14] - m[12] * m[6]
            * m[11] + m[12] * m[7] * m[10]
        inv[8] =
            m[4] * m[9] * m[15] - m[4] * m[11] * m[13] - m[8] * m[5] * m[15] + m[8] * m[7] * m[13] + m[12] * m[5]
            * m[11] - m[12] * m[7] * m[9]
        inv[12] =
            -m[4] * m[9] * m[14] + m[4] * m[10] * m[13] + m[8] * m[5] * m[14] - m[8] * m[6] * m[13] - m[12] * m[5]
            * m[10] + m[12] * m[6] * m[9]
        inv[1] =
            -m[1] * m[10] * m[15] + m[1] * m[11] * m[14] + m[9] * m[2] * m[15] - m[9] * m[3] * m[14] - m[13] * m[2]
            * m[11] + m[13] * m[3] * m[10]
        inv[5] =
            m[0] * m[10] * m[15] - m[0] * m[11] * m[14] - m[8] * m[2] * m[15] + m[8] * m[3] * m[14] + m[12] * m[2]
            * m[11] - m[12] * m[3] * m[10]
        inv[9] =
            -m[0] * m[9] * m[15] + m[0] * m[11] * m[13] + m[8] * m[1] * m[15] - m[8] * m[3] * m[13] - m[12] * m[1]
            * m[11] + m[12] * m[3] * m[9]
        inv[13] =
            m[0] * m[9] * m[14] - m[0] * m[10] * m[13] - m[8] * m[1] * m[14] + m[8] * m[2] * m[13] + m[12] * m[1]
            * m[10] - m[12] * m[2] * m[9]
        inv[2] =
            m[1] * m[6] * m[15] - m[1] * m[7] * m[14] - m[5] * m[2] * m[15] + m[5] * m[3] * m[14] + m[13] * m[2] * m[7]
            - m[13] * m[3] * m[6]
        inv[6] =
            -m[0] * m[6] * m[15] + m[0] * m[7] * m[14] + m[4] * m[2] * m[15] - m[4] * m[3] * m[14] - m[12] * m[2] * m[7]
            + m[12] * m[3] * m[6]
        inv[10] =
            m[0] * m[5] * m[15] - m[0] * m[7] * m[13] - m[4] * m[1] * m[15] + m[4] * m[3] * m[13] + m[12] * m[1] * m[7]
            - m[12] * m[3] * m[5]
        inv[14] =
            -m[0] * m[5] * m[14] + m[0] * m[6] * m[13] + m[4] * m[1] * m[14] - m[4] * m[2] * m[13] - m[12] * m[1] * m[6]
            + m[12] * m[2] * m[5]
        inv[3] =
            -m[1] * m[6] * m[11] + m[1] * m[7] * m[10] + m[5] * m[2] * m[11] - m[5] * m[3] * m[10] - m[9] * m[2] * m[7]
            + m[9] * m[3] * m[6]
        inv[7] =
            m[0] * m[6] * m[11] - m[0] * m[7] * m[10] - m[4] * m[2] * m[11] + m[4] * m[3] * m[10] + m[8] * m[2] * m[7]
            - m[8] * m[3] * m[6]
        inv[11] =
            -m[0] * m[5] * m[11] + m[0] * m[7] * m[9] + m[4] * m[1] * m[11] - m[4] * m[3] * m[9] - m[8] * m[1] * m[7]
            + m[8] * m[3] * m[5]
        inv[15] =
            m[0] * m[5] * m[10] - m[0] * m[6] * m[9] - m[4] * m[1] * m[10] + m[4] * m[2] * m[9] + m[8] * m[1] * m[6]
            - m[8] * m[2] * m[5]
        let determinant = m[0] * inv[0] + m[1] * inv[4] + m[2] * inv[8] + m[3] * inv[12]
        guard determinant != 0, determinant.isFinite else { return nil }
        return Matrix4(columnMajor: inv.map { $0 / determinant })
    }
}

/// A rotation, a uniform scale and a translation: `p ↦ translation + scale · rotation(p)`.
/// With `scale` 1 it is a rigid transform (a pose).
public struct Similarity: Sendable, Hashable {
    /// The rotation.
    public var rotation: Rotation
    /// The translation, applied after rotating and scaling.
    public var translation: Vec3
    /// The uniform scale (1 for a rigid pose).
    public var scale: Double

    /// Creates a transform.
    public init(rotation: Rotation = .identity, translation: Vec3 = .zero, scale: Double = 1) {
        self.rotation = rotation
        self.translation = translation
        self.scale = scale
    }

    /// The transform that changes nothing.
    public static let identity = Similarity()

    /// Maps a point.
    public func apply(_ point: Vec3) -> Vec3 { translation + scale * rotation.apply(point) }

    /// `self` after `inner`: the result maps `p` to `self(inner(p))`.
    public func concatenating(_ inner: Similarity) -> Similarity {
        Similarity(
            rotation: rotation.concatenating(inner.rotation), translation: apply(inner.translation),
            scale: scale * inner.scale)
    }

    /// The inverse transform (scale must not be 0).
    public var inverse: Similarity {
        let inverseRotation = rotation.inverse
        return Similarity(
            rotation: inverseRotation, translation: -(inverseRotation.apply(translation) / scale), scale: 1 / scale)
    }

    /// The transform as a 4×4 matrix.
    public var matrix: Matrix4 {
        let m = rotation.matrix
        var result = Matrix4.identity
        for row in 0..<3 {
            for column in 0..<3 { result[row, column] = m[row][column] * scale }
        }
        result[0, 3] = translation.x
        result[1, 3] = translation.y
        result[2, 3] = translation.z
        return result
    }

    /// The local −Z axis in the parent frame: where a camera or node looks (SceneKit's `worldFront`).
    public var front: Vec3 { rotation.apply(Vec3(0, 0, -1)) }
}
