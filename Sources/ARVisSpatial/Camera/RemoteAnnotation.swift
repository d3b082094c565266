public import ARVisSpec

/// Where a remote viewer's tap lands in the world: the tap and the frame's camera give a ray; the
/// annotation goes where the ray first meets a known plane, else at a fixed depth along the ray
/// from the camera's position. (The OpenTok sample forgot the position and fed raw view points to a
/// screen of another size; both are fixed here.)
public enum RemoteAnnotation {
    /// The sample's fixed depth in metres.
    public static let fixedDepth = 2.0

    /// The world point for a tap normalised to the video frame (0…1 from its top-left).
    public static func worldPoint(tap: SIMD2<Double>, camera: Camera, planes: [Plane] = [], depth: Double = fixedDepth)
        -> Vec3
    {
        let ray = camera.ray(throughNormalized: tap.x, tap.y)
        let hits = planes.compactMap { $0.intersection(with: ray) }
        if let nearest = hits.min(by: { ($0 - ray.origin).length < ($1 - ray.origin).length }) { return nearest }
        return ray.point(at: depth)
    }

    /// How a viewer shows the video frame in its view.
    public enum ContentMode: Sendable, Hashable {
        /// The whole frame, letterboxed.
        case fit
        /// The frame cropped to fill the view.
        case fill
    }

    /// A tap in a viewer's view (points) as a position in the frame (0…1), for a frame of `frameSize`
    /// shown in `viewSize`; `nil` for a tap on the letterbox bars.
    public static func normalizedTap(
        _ point: SIMD2<Double>, viewSize: SIMD2<Double>, frameSize: SIMD2<Double>, mode: ContentMode
    ) -> SIMD2<Double>? {
        guard viewSize.x > 0, viewSize.y > 0, frameSize.x > 0, frameSize.y > 0 else { return nil }
        let ratios = viewSize / frameSize
        let scale = mode == .fit ? ratios.min() : ratios.max()
        let shown = frameSize * scale
        let origin = (viewSize - shown) / 2
        let tap = (point - origin) / shown
        guard tap.x >= 0, tap.x <= 1, tap.y >= 0, tap.y <= 1 else { return nil }
        return tap
    }
}
