public import ARVisSpec

/// A half-line from an origin in a direction (unit length).
public struct Ray: Sendable, Hashable {
    /// Where the ray starts.
    public var origin: Vec3
    /// Unit length.
    public var direction: Vec3

    /// Creates a ray; the direction is normalised.
    public init(origin: Vec3, direction: Vec3) {
        self.origin = origin
        self.direction = direction.normalized
    }

    /// The point `distance` along the ray.
    public func point(at distance: Double) -> Vec3 { origin + distance * direction }
}

/// An infinite plane `normal · p = offset`.
public struct Plane: Sendable, Hashable {
    /// Unit length.
    public var normal: Vec3
    /// The plane's signed distance from the origin along its normal.
    public var offset: Double

    /// The plane through `point` with `normal`.
    public init(point: Vec3, normal: Vec3) {
        self.normal = normal.normalized
        self.offset = self.normal.dot(point)
    }

    /// The horizontal plane at height `y` (normal up).
    public static func horizontal(y: Double) -> Plane { Plane(point: Vec3(0, y, 0), normal: Vec3(0, 1, 0)) }

    /// Signed distance from the plane to a point (positive on the normal's side).
    public func distance(to point: Vec3) -> Double { normal.dot(point) - offset }

    /// Where a ray meets the plane in front of its origin, or `nil` when it runs parallel or away.
    public func intersection(with ray: Ray) -> Vec3? {
        let denominator = normal.dot(ray.direction)
        guard abs(denominator) > 1e-12 else { return nil }
        let distance = (offset - normal.dot(ray.origin)) / denominator
        return distance >= 0 ? ray.point(at: distance) : nil
    }
}

/// An axis-aligned box.
public struct Box: Sendable, Hashable {
    /// The corner with the smallest coordinates.
    public var minimum: Vec3
    /// The corner with the largest coordinates.
    public var maximum: Vec3

    /// Creates a box from two corners in any order.
    public init(_ a: Vec3, _ b: Vec3) {
        minimum = Vec3(min(a.x, b.x), min(a.y, b.y), min(a.z, b.z))
        maximum = Vec3(max(a.x, b.x), max(a.y, b.y), max(a.z, b.z))
    }

    /// A box from its centre and full extent.
    public init(center: Vec3, extent: Vec3) { self.init(center - extent / 2, center + extent / 2) }

    /// The centre.
    public var center: Vec3 { (minimum + maximum) / 2 }
    /// The size along each axis.
    public var extent: Vec3 { maximum - minimum }

    /// Whether the point is inside or on the box.
    public func contains(_ point: Vec3) -> Bool {
        point.x >= minimum.x && point.y >= minimum.y && point.z >= minimum.z
            && point.x <= maximum.x && point.y <= maximum.y && point.z <= maximum.z
    }

    /// The distance along `ray` to where it enters the box (0 if it starts inside), or `nil` (slab method).
    public func intersection(with ray: Ray) -> Double? {
        var near = 0.0
        var far = Double.infinity
        for axis in 0..<3 {
            let origin = ray.origin[axis]
            let direction = ray.direction[axis]
            if abs(direction) < 1e-15 {
                if origin < minimum[axis] || origin > maximum[axis] { return nil }
                continue
            }
            var t0 = (minimum[axis] - origin) / direction
            var t1 = (maximum[axis] - origin) / direction
            if t0 > t1 { swap(&t0, &t1) }
            near = max(near, t0)
            far = min(far, t1)
            if near > far { return nil }
        }
        return near
    }
}
