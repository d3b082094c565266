import ARVisSupport
import Foundation

/// A vector outline made of straight and curved segments, in drawing units.
public struct Path: Sendable, Hashable {
    /// One step of a path.
    public enum Element: Sendable, Hashable {
        /// Starts a subpath.
        case move(Point)
        /// A straight segment.
        case line(Point)
        /// A quadratic Bézier segment.
        case quad(control: Point, to: Point)
        /// A cubic Bézier segment.
        case cubic(control1: Point, control2: Point, to: Point)
        /// Closes the subpath.
        case close
    }

    /// The steps, in order.
    public private(set) var elements: [Element] = []

    /// Creates an empty path.
    public init() {}

    /// Whether the path has no steps.
    public var isEmpty: Bool { elements.isEmpty }

    /// Starts a new subpath at `point`.
    public mutating func move(to point: Point) { elements.append(.move(point)) }
    /// Adds a straight segment.
    public mutating func line(to point: Point) { elements.append(.line(point)) }
    /// Adds a quadratic Bézier segment.
    public mutating func quad(control: Point, to point: Point) { elements.append(.quad(control: control, to: point)) }
    /// Adds a cubic Bézier segment.
    public mutating func cubic(_ control1: Point, _ control2: Point, to point: Point) {
        elements.append(.cubic(control1: control1, control2: control2, to: point))
    }
    /// Closes the current subpath.
    public mutating func close() { elements.append(.close) }

    /// Appends one step.
    public mutating func appendElement(_ element: Element) { elements.append(element) }

    /// Appends every step of `other`.
    public mutating func append(_ other: Path) { elements.append(contentsOf: other.elements) }

    /// A rectangle, drawn clockwise on screen.
    public static func rect(_ rect: Rect) -> Path {
        var path = Path()
        path.move(to: Point(rect.minX, rect.minY))
        path.line(to: Point(rect.maxX, rect.minY))
        path.line(to: Point(rect.maxX, rect.maxY))
        path.line(to: Point(rect.minX, rect.maxY))
        path.close()
        return path
    }

    /// A rectangle with circular corners of `radius` (limited to half the shorter side).
    public static func roundedRect(_ rect: Rect, radius: Double) -> Path {
        let r = min(max(0, radius), rect.width / 2, rect.height / 2)
        guard r > 0 else { return .rect(rect) }
        let k = 0.5522847498 * r
        var path = Path()
        path.move(to: Point(rect.minX + r, rect.minY))
        path.line(to: Point(rect.maxX - r, rect.minY))
        path.cubic(
            Point(rect.maxX - r + k, rect.minY), Point(rect.maxX, rect.minY + r - k),
            to: Point(rect.maxX, rect.minY + r))
        path.line(to: Point(rect.maxX, rect.maxY - r))
        path.cubic(
            Point(rect.maxX, rect.maxY - r + k), Point(rect.maxX - r + k, rect.maxY),
            to: Point(rect.maxX - r, rect.maxY))
        path.line(to: Point(rect.minX + r, rect.maxY))
        path.cubic(
            Point(rect.minX + r - k, rect.maxY), Point(rect.minX, rect.maxY - r + k),
            to: Point(rect.minX, rect.maxY - r))
        path.line(to: Point(rect.minX, rect.minY + r))
        path.cubic(
            Point(rect.minX, rect.minY + r - k), Point(rect.minX + r - k, rect.minY),
            to: Point(rect.minX + r, rect.minY))
        path.close()
        return path
    }

    /// An ellipse inscribed in `rect`.
    public static func ellipse(in rect: Rect) -> Path {
        let rx = rect.width / 2
        let ry = rect.height / 2
        let cx = rect.midX
        let cy = rect.midY
        let kx = 0.5522847498 * rx
        let ky = 0.5522847498 * ry
        var path = Path()
        path.move(to: Point(cx + rx, cy))
        path.cubic(Point(cx + rx, cy + ky), Point(cx + kx, cy + ry), to: Point(cx, cy + ry))
        path.cubic(Point(cx - kx, cy + ry), Point(cx - rx, cy + ky), to: Point(cx - rx, cy))
        path.cubic(Point(cx - rx, cy - ky), Point(cx - kx, cy - ry), to: Point(cx, cy - ry))
        path.cubic(Point(cx + kx, cy - ry), Point(cx + rx, cy - ky), to: Point(cx + rx, cy))
        path.close()
        return path
    }

    /// A circle of `radius` around `center`.
    public static func circle(center: Point, radius: Double) -> Path {
        ellipse(in: Rect(x: center.x - radius, y: center.y - radius, width: 2 * radius, height: 2 * radius))
    }

    /// An open polyline through `points`.
    public static func polyline(_ points: [Point]) -> Path {
        var path = Path()
        for (index, point) in points.enumerated() {
            if index == 0 { path.move(to: point) } else { path.line(to: point) }
        }
        return path
    }

    /// The path with every point mapped by `transform`.
    public func applying(_ transform: Transform) -> Path {
        if transform == .identity { return self }
        var result = Path()
        result.elements = elements.map { element in
            switch element {
            case .move(let p): .move(transform.apply(p))
            case .line(let p): .line(transform.apply(p))
            case .quad(let c, let p): .quad(control: transform.apply(c), to: transform.apply(p))
            case .cubic(let c1, let c2, let p):
                .cubic(control1: transform.apply(c1), control2: transform.apply(c2), to: transform.apply(p))
            case .close: .close
            }
        }
        return result
    }

    /// The path as polylines, one per subpath, with curves split until they stray less than
    /// `tolerance` from the true curve.
    public func flattened(tolerance: Double = 0.2) -> [Polyline] {
        var result: [Polyline] = []
        var current: [Point] = []
        var start = Point.zero
        var pen = Point.zero
        func finish(closed: Bool) {
            if current.count > 1 { result.append(Polyline(points: current, isClosed: closed)) }
            current = []
        }
        for element in elements {
            switch element {
            case .move(let p):
                finish(closed: false)
                current = [p]
                start = p
                pen = p
            case .line(let p):
                if current.isEmpty { current = [pen] }
                current.append(p)
                pen = p
            case .quad(let c, let p):
                if current.isEmpty { current = [pen] }
                Self.flattenQuad(pen, c, p, tolerance, into: &current)
                pen = p
            case .cubic(let c1, let c2, let p):
                if current.isEmpty { current = [pen] }
                Self.flattenCubic(pen, c1, c2, p, tolerance, into: &current)
                pen = p
            case .close:
                finish(closed: true)
                pen = start
            }
        }
        finish(closed: false)
        return result
    }

    private static func segmentCount(deviation: Double, tolerance: Double) -> Int {
        min(100, max(1, Int(saturating: (deviation / tolerance).squareRoot().rounded(.up))))
    }

    private static func flattenQuad(
        _ p0: Point, _ c: Point, _ p1: Point, _ tolerance: Double, into points: inout [Point]
    ) {
        let dx = p0.x - 2 * c.x + p1.x
        let dy = p0.y - 2 * c.y + p1.y
        let count = segmentCount(deviation: (dx * dx + dy * dy).squareRoot() / 4, tolerance: tolerance)
        for step in 1...count {
            let t = Double(step) / Double(count)
            let u = 1 - t
            points.append(
                Point(u * u * p0.x + 2 * u * t * c.x + t * t * p1.x, u * u * p0.y + 2 * u * t * c.y + t * t * p1.y))
        }
    }

    private static func flattenCubic(
        _ p0: Point, _ c1: Point, _ c2: Point, _ p1: Point, _ tolerance: Double, into points: inout [Point]
    ) {
        let ax = p0.x - 2 * c1.x + c2.x
        let ay = p0.y - 2 * c1.y + c2.y
        let bx = c1.x - 2 * c2.x + p1.x
        let by = c1.y - 2 * c2.y + p1.y
        let deviation = 0.75 * max((ax * ax + ay * ay).squareRoot(), (bx * bx + by * by).squareRoot())
        let count = segmentCount(deviation: deviation, tolerance: tolerance)
        for step in 1...count {
            let t = Double(step) / Double(count)
            let u = 1 - t
            let w0 = u * u * u
            let w1 = 3 * u * u * t
            let w2 = 3 * u * t * t
            let w3 = t * t * t
            points.append(
                Point(w0 * p0.x + w1 * c1.x + w2 * c2.x + w3 * p1.x, w0 * p0.y + w1 * c1.y + w2 * c2.y + w3 * p1.y))
        }
    }
}

/// A run of straight segments, the result of flattening a subpath.
public struct Polyline: Sendable, Hashable {
    /// The vertices, in order.
    public var points: [Point]
    /// Whether the last point joins back to the first.
    public var isClosed: Bool

    /// Creates a polyline.
    public init(points: [Point], isClosed: Bool) {
        self.points = points
        self.isClosed = isClosed
    }
}
