public import ARVisSpec
import Foundation

/// A pinhole camera: a pose (looking along its local −Z, y up), a lens and a viewport.
///
/// Window coordinates follow SceneKit's `projectPoint`: x to the right and y down in points from the
/// view's top-left corner, z the depth from 0 (near plane) to 1 (far plane). Normalised coordinates
/// divide x and y by the viewport size, so the same relative tap gives the same point on any screen.
///
/// ```swift
/// let camera = Camera(pose: Similarity(translation: Vec3(0, 1.5, 0)), lens: .verticalFieldOfView(degrees: 60),
///                     viewport: Viewport(width: 1170, height: 2532))
/// let window = camera.project(Vec3(0, 1.5, -2))      // (585, 1266, …): the centre of the screen
/// camera.unproject(window)                          // ≈ (0, 1.5, -2)
/// ```
public struct Camera: Sendable, Hashable {
    /// How the camera maps directions to the image.
    public enum Lens: Sendable, Hashable {
        /// SceneKit's `fieldOfView` (vertical, degrees), centred.
        case verticalFieldOfView(degrees: Double)
        /// Focal lengths and principal point in viewport points (y down), as ARKit's intrinsics.
        case intrinsics(fx: Double, fy: Double, cx: Double, cy: Double)
    }

    /// The camera's pose in the world (rigid: scale 1).
    public var pose: Similarity
    /// How directions map to the image.
    public var lens: Lens
    /// The view the camera draws into.
    public var viewport: Viewport
    /// The near clipping distance in metres (SceneKit's default is 1 mm; the far one's 100 m).
    public var near: Double
    /// The far clipping distance in metres.
    public var far: Double

    /// Creates a camera.
    public init(pose: Similarity, lens: Lens, viewport: Viewport, near: Double = 0.001, far: Double = 100) {
        self.pose = pose
        self.lens = lens
        self.viewport = viewport
        self.near = near
        self.far = far
    }

    /// The projection matrix (OpenGL clip space, depth −1…1).
    public var projectionMatrix: Matrix4 {
        let width = viewport.width
        let height = viewport.height
        var matrix = Matrix4(columns: [.zero, .zero, .zero, .zero])
        switch lens {
        case .verticalFieldOfView(let degrees):
            let focal = 1 / tan(degrees * .pi / 360)
            matrix[0, 0] = focal * height / width
            matrix[1, 1] = focal
        case .intrinsics(let fx, let fy, let cx, let cy):
            matrix[0, 0] = 2 * fx / width
            matrix[0, 2] = 1 - 2 * cx / width
            matrix[1, 1] = 2 * fy / height
            matrix[1, 2] = 2 * cy / height - 1
        }
        matrix[2, 2] = (far + near) / (near - far)
        matrix[2, 3] = 2 * far * near / (near - far)
        matrix[3, 2] = -1
        return matrix
    }

    /// World → clip space: projection · view.
    public var viewProjection: Matrix4 { projectionMatrix * pose.inverse.matrix }

    /// A world point in window coordinates (points, y down; depth 0 at near … 1 at far).
    public func project(_ point: Vec3) -> Vec3 {
        let clip = viewProjection * SIMD4(point.x, point.y, point.z, 1)
        let ndc = Vec3(clip.x, clip.y, clip.z) / clip.w
        return Vec3((ndc.x + 1) / 2 * viewport.width, (1 - ndc.y) / 2 * viewport.height, (ndc.z + 1) / 2)
    }

    /// The world point at window coordinates (x, y in points, z depth 0…1): the inverse of ``project(_:)``.
    public func unproject(_ window: Vec3) -> Vec3 {
        let ndc = SIMD4(2 * window.x / viewport.width - 1, 1 - 2 * window.y / viewport.height, 2 * window.z - 1, 1)
        guard let inverse = viewProjection.inverse else { return pose.translation }
        let world = inverse * ndc
        return Vec3(world.x, world.y, world.z) / world.w
    }

    /// A world point in normalised coordinates: x and y as fractions of the viewport (0…1 from the
    /// top-left), z the window depth.
    public func projectNormalized(_ point: Vec3) -> Vec3 {
        let window = project(point)
        return Vec3(window.x / viewport.width, window.y / viewport.height, window.z)
    }

    /// The world point at normalised coordinates: the inverse of ``projectNormalized(_:)``.
    public func unprojectNormalized(_ normalized: Vec3) -> Vec3 {
        unproject(Vec3(normalized.x * viewport.width, normalized.y * viewport.height, normalized.z))
    }

    /// The ray from the camera's position through a normalised viewport point (0…1 from the top-left).
    public func ray(throughNormalized x: Double, _ y: Double) -> Ray {
        let onNear = unprojectNormalized(Vec3(x, y, 0))
        let onFar = unprojectNormalized(Vec3(x, y, 1))
        return Ray(origin: pose.translation, direction: onFar - onNear)
    }
}

/// A view's size in points.
public struct Viewport: Sendable, Hashable {
    /// The width in points.
    public var width: Double
    /// The height in points.
    public var height: Double

    /// Creates a viewport.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}
