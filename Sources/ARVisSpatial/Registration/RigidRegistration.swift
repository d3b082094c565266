public import ARVisSpec
public import ARVisSupport
import Foundation

/// A point saved in one session and the point observed for it in another.
public struct Correspondence: Sendable, Hashable {
    /// Where the point was in the saved session's frame.
    public var saved: Vec3
    /// Where it is observed in the current session's frame.
    public var observed: Vec3

    /// Creates a correspondence.
    public init(saved: Vec3, observed: Vec3) {
        self.saved = saved
        self.observed = observed
    }
}

/// The rigid transform from a saved session's frame to the current one, and how well it fits.
public struct Registration: Sendable, Hashable {
    /// Maps saved positions to current ones (rotation and translation; scale 1).
    public var transform: Similarity
    /// Indices of the correspondences the transform explains.
    public var inliers: [Int]
    /// Root-mean-square distance, in metres, between transformed saved points and their observations, over the inliers.
    public var rmsResidual: Double
    /// The probability, given the inlier ratio found and the samples drawn, that an all-inlier sample was seen (0…1).
    public var confidence: Double

    /// Re-maps a saved pose into the current frame.
    public func remap(_ pose: Similarity) -> Similarity { transform.concatenating(pose) }
}

/// Rigid registration of point correspondences: closed-form least squares (Horn's unit-quaternion
/// method) inside RANSAC, for relocalising saved anchors when a session resumes.
///
/// ```swift
/// let registration = try RigidRegistration.robust(correspondences, inlierThreshold: 0.05, seed: 1)
/// let anchorNow = registration.remap(savedAnchorPose)
/// ```
public enum RigidRegistration {
    /// The rigid transform minimising the summed squared distances between `transform(saved)` and
    /// `observed` over `correspondences`.
    /// - Throws: ``SpatialError`` `insufficientData` for fewer than three correspondences or points all on one line.
    public static func leastSquares(_ correspondences: some Collection<Correspondence>) throws(SpatialError)
        -> Similarity
    {
        let count = Double(correspondences.count)
        guard correspondences.count >= 3 else {
            throw SpatialError(
                .insufficientData, "rigid registration needs at least 3 correspondences; got \(correspondences.count)")
        }
        var savedCentre = Vec3.zero
        var observedCentre = Vec3.zero
        for pair in correspondences {
            savedCentre += pair.saved
            observedCentre += pair.observed
        }
        savedCentre /= count
        observedCentre /= count
        // Cross-covariance S[i][j] = Σ a_i b_j of the centred points.
        var s = [[Double]](repeating: [0, 0, 0], count: 3)
        for pair in correspondences {
            let a = pair.saved - savedCentre
            let b = pair.observed - observedCentre
            for i in 0..<3 {
                for j in 0..<3 { s[i][j] += a[i] * b[j] }
            }
        }
        let n: [[Double]] = [
            [s[0][0] + s[1][1] + s[2][2], s[1][2] - s[2][1], s[2][0] - s[0][2], s[0][1] - s[1][0]],
            [s[1][2] - s[2][1], s[0][0] - s[1][1] - s[2][2], s[0][1] + s[1][0], s[2][0] + s[0][2]],
            [s[2][0] - s[0][2], s[0][1] + s[1][0], -s[0][0] + s[1][1] - s[2][2], s[1][2] + s[2][1]],
            [s[0][1] - s[1][0], s[2][0] + s[0][2], s[1][2] + s[2][1], -s[0][0] - s[1][1] + s[2][2]],
        ]
        let (values, vectors) = SymmetricEigen.decompose(n)
        let sorted = values.indices.sorted { values[$0] > values[$1] }
        // Points on a line (or one point) leave the rotation about that line undetermined.
        let scale = max(abs(values[sorted[0]]), 1e-300)
        guard (values[sorted[0]] - values[sorted[1]]) / scale > 1e-9 else {
            throw SpatialError(
                .insufficientData, "the correspondences lie on a line or coincide; the rotation is undetermined")
        }
        let q = vectors[sorted[0]]
        let rotation = Rotation(x: q[1], y: q[2], z: q[3], w: q[0])
        return Similarity(rotation: rotation, translation: observedCentre - rotation.apply(savedCentre))
    }

    /// A robust estimate: RANSAC over minimal samples of three correspondences, then least squares on
    /// the inliers, refined until the inlier set settles.
    ///
    /// - Parameters:
    ///   - inlierThreshold: the largest residual, in metres, of a correspondence that fits.
    ///   - successProbability: stop sampling once an all-inlier sample has been drawn with this probability.
    ///   - maximumIterations: the most samples drawn.
    ///   - seed: the random seed, so results are repeatable.
    /// - Throws: ``SpatialError`` `insufficientData` when fewer than three correspondences fit any sample.
    public static func robust(
        _ correspondences: [Correspondence], inlierThreshold: Double = 0.05, successProbability: Double = 0.999,
        maximumIterations: Int = 2000, seed: UInt64 = 0x5EED
    ) throws(SpatialError) -> Registration {
        let count = correspondences.count
        guard count >= 3 else {
            throw SpatialError(.insufficientData, "rigid registration needs at least 3 correspondences; got \(count)")
        }
        var generator = SplitMix64(seed: seed)
        let threshold2 = inlierThreshold * inlierThreshold
        var best: (transform: Similarity, inliers: Int)?
        var iterations = 0
        var needed = maximumIterations
        while iterations < min(needed, maximumIterations) {
            iterations += 1
            let a = Int.random(in: 0..<count, using: &generator)
            var b = Int.random(in: 0..<count - 1, using: &generator)
            if b >= a { b += 1 }
            var c = Int.random(in: 0..<count - 2, using: &generator)
            if c >= min(a, b) { c += 1 }
            if c >= max(a, b) { c += 1 }
            let sample = [correspondences[a], correspondences[b], correspondences[c]]
            guard let transform = try? leastSquares(sample) else { continue }
            let inliers = countInliers(correspondences, transform, threshold2)
            if inliers > (best?.inliers ?? 2) {
                best = (transform, inliers)
                let ratio = Double(inliers) / Double(count)
                let allInlier = pow(ratio, 3)
                // A tiny inlier share makes log(1 − share) 0 and the quotient infinite: saturate, not trap.
                needed =
                    allInlier >= 1
                    ? iterations : Int(saturating: (log(1 - successProbability) / log(1 - allInlier)).rounded(.up))
            }
        }
        guard let best else {
            throw SpatialError(.insufficientData, "no three correspondences agree within \(inlierThreshold) m")
        }
        var transform = best.transform
        var inliers = inlierIndices(correspondences, transform, threshold2)
        for _ in 0..<5 {
            guard let refined = try? leastSquares(inliers.map { correspondences[$0] }) else { break }
            let next = inlierIndices(correspondences, refined, threshold2)
            transform = refined
            if next == inliers { break }
            inliers = next
        }
        let squared = inliers.reduce(0.0) { $0 + squaredResidual(correspondences[$1], transform) }
        let ratio = Double(inliers.count) / Double(count)
        let confidence = 1 - pow(1 - pow(ratio, 3), Double(iterations))
        return Registration(
            transform: transform, inliers: inliers, rmsResidual: (squared / Double(max(1, inliers.count))).squareRoot(),
            confidence: confidence)
    }

    @inline(__always) private static func squaredResidual(_ pair: Correspondence, _ transform: Similarity) -> Double {
        let difference = transform.apply(pair.saved) - pair.observed
        return difference.dot(difference)
    }

    private static func countInliers(_ correspondences: [Correspondence], _ transform: Similarity, _ threshold2: Double)
        -> Int
    {
        var inliers = 0
        for pair in correspondences where squaredResidual(pair, transform) <= threshold2 { inliers += 1 }
        return inliers
    }

    private static func inlierIndices(
        _ correspondences: [Correspondence], _ transform: Similarity, _ threshold2: Double
    ) -> [Int] {
        correspondences.indices.filter { squaredResidual(correspondences[$0], transform) <= threshold2 }
    }
}

/// Eigenvalues and eigenvectors of a small symmetric matrix by cyclic Jacobi rotations.
enum SymmetricEigen {
    /// The eigenvalues and, for each, its unit eigenvector.
    static func decompose(_ input: [[Double]]) -> (values: [Double], vectors: [[Double]]) {
        let size = input.count
        var a = input
        var v = (0..<size).map { row in (0..<size).map { row == $0 ? 1.0 : 0.0 } }
        for _ in 0..<64 {
            var off = 0.0
            for p in 0..<size {
                for q in (p + 1)..<size { off += a[p][q] * a[p][q] }
            }
            if off < 1e-30 { break }
            for p in 0..<size {
                for q in (p + 1)..<size where abs(a[p][q]) > 1e-300 {
                    let theta = (a[q][q] - a[p][p]) / (2 * a[p][q])
                    let t = (theta >= 0 ? 1 : -1) / (abs(theta) + (theta * theta + 1).squareRoot())
                    let c = 1 / (t * t + 1).squareRoot()
                    let s = t * c
                    for k in 0..<size {
                        let akp = a[k][p]
                        let akq = a[k][q]
                        a[k][p] = c * akp - s * akq
                        a[k][q] = s * akp + c * akq
                    }
                    for k in 0..<size {
                        let apk = a[p][k]
                        let aqk = a[q][k]
                        a[p][k] = c * apk - s * aqk
                        a[q][k] = s * apk + c * aqk
                    }
                    for k in 0..<size {
                        let vkp = v[k][p]
                        let vkq = v[k][q]
                        v[k][p] = c * vkp - s * vkq
                        v[k][q] = s * vkp + c * vkq
                    }
                }
            }
        }
        let values = (0..<size).map { a[$0][$0] }
        let vectors = (0..<size).map { column in (0..<size).map { v[$0][column] } }
        return (values, vectors)
    }
}
