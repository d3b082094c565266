public import ARVisSupport
import Foundation

/// A point in drawing units (CSS pixels at 1×), y growing downwards.
public struct Point: Sendable, Hashable {
    /// The horizontal coordinate (left edge for a rectangle).
    public var x: Double
    /// The vertical coordinate, growing downwards (top edge for a rectangle).
    public var y: Double

    /// Creates a point.
    public init(_ x: Double, _ y: Double) {
        self.x = x
        self.y = y
    }

    /// The point at the origin.
    public static let zero = Point(0, 0)
}

/// An axis-aligned rectangle.
public struct Rect: Sendable, Hashable {
    /// The horizontal coordinate (left edge for a rectangle).
    public var x: Double
    /// The vertical coordinate, growing downwards (top edge for a rectangle).
    public var y: Double
    /// The horizontal length.
    public var width: Double
    /// The vertical length.
    public var height: Double

    /// Creates a rectangle from its top-left corner and extent.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// Creates a rectangle at `origin` with `extent`.
    public init(origin: Point, extent: Size) {
        self.init(x: origin.x, y: origin.y, width: extent.width, height: extent.height)
    }

    /// The left edge.
    public var minX: Double { x }
    /// The top edge.
    public var minY: Double { y }
    /// The right edge.
    public var maxX: Double { x + width }
    /// The bottom edge.
    public var maxY: Double { y + height }
    /// The horizontal centre.
    public var midX: Double { x + width / 2 }
    /// The vertical centre.
    public var midY: Double { y + height / 2 }
    /// The rectangle's extent.
    public var extent: Size { Size(width: width, height: height) }

    /// The rectangle shrunk by the given amounts on each side (never below zero size).
    public func inset(top: Double, left: Double, bottom: Double, right: Double) -> Rect {
        Rect(x: x + left, y: y + top, width: max(0, width - left - right), height: max(0, height - top - bottom))
    }

    /// The overlap of two rectangles; zero-sized when they do not overlap.
    public func intersection(_ other: Rect) -> Rect {
        let left = max(minX, other.minX)
        let top = max(minY, other.minY)
        let right = min(maxX, other.maxX)
        let bottom = min(maxY, other.maxY)
        return Rect(x: left, y: top, width: max(0, right - left), height: max(0, bottom - top))
    }

    /// Whether `point` lies inside the rectangle.
    public func contains(_ point: Point) -> Bool {
        point.x >= minX && point.x <= maxX && point.y >= minY && point.y <= maxY
    }
}

/// A 2D affine transform `[a c tx; b d ty]`, as in SVG's `matrix(a b c d tx ty)`.
public struct Transform: Sendable, Hashable {
    /// The coefficients: `x' = a·x + c·y + tx`, `y' = b·x + d·y + ty`.
    public var a, b, c, d, tx, ty: Double

    /// Creates a transform from its six coefficients.
    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        (self.a, self.b, self.c, self.d, self.tx, self.ty) = (a, b, c, d, tx, ty)
    }

    /// The transform that changes nothing.
    public static let identity = Transform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    /// A translation.
    public static func translation(_ x: Double, _ y: Double) -> Transform {
        Transform(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y)
    }

    /// A scale about the origin.
    public static func scale(_ x: Double, _ y: Double) -> Transform {
        Transform(a: x, b: 0, c: 0, d: y, tx: 0, ty: 0)
    }

    /// A rotation about the origin, clockwise on screen for positive angles (y points down).
    public static func rotation(degrees: Double) -> Transform {
        let radians = degrees * .pi / 180
        let cosine = cos(radians)
        let sine = sin(radians)
        return Transform(a: cosine, b: sine, c: -sine, d: cosine, tx: 0, ty: 0)
    }

    /// `self` applied after `inner`: the result maps `p` to `self(inner(p))`.
    public func concatenating(_ inner: Transform) -> Transform {
        Transform(
            a: a * inner.a + c * inner.b, b: b * inner.a + d * inner.b,
            c: a * inner.c + c * inner.d, d: b * inner.c + d * inner.d,
            tx: a * inner.tx + c * inner.ty + tx, ty: b * inner.tx + d * inner.ty + ty)
    }

    /// Maps a point.
    public func apply(_ point: Point) -> Point {
        Point(a * point.x + c * point.y + tx, b * point.x + d * point.y + ty)
    }

    /// Whether the transform is a pure translation.
    public var isTranslation: Bool { a == 1 && b == 0 && c == 0 && d == 1 }

    /// The factor by which the transform scales lengths on average.
    public var averageScale: Double { (abs(a * d - b * c)).squareRoot() }
}

/// A colour with 8-bit red, green and blue and an opacity from 0 to 1.
public struct DrawingColor: Sendable, Hashable {
    /// Red, 0–255.
    public var red: UInt8
    /// Green, 0–255.
    public var green: UInt8
    /// Blue, 0–255.
    public var blue: UInt8
    /// Opacity, 0 (transparent) to 1 (opaque).
    public var opacity: Double

    /// Creates a colour from 8-bit components.
    public init(red: UInt8, green: UInt8, blue: UInt8, opacity: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.opacity = min(1, max(0, opacity))
    }

    /// Creates a colour from components between 0 and 1 (clamped).
    public init(unitRed red: Double, green: Double, blue: Double, opacity: Double = 1) {
        func byte(_ value: Double) -> UInt8 { UInt8((min(1, max(0, value)) * 255).rounded()) }
        self.init(red: byte(red), green: byte(green), blue: byte(blue), opacity: opacity)
    }

    /// The same colour with its opacity multiplied by `factor`.
    public func fading(_ factor: Double) -> DrawingColor {
        DrawingColor(red: red, green: green, blue: blue, opacity: opacity * factor)
    }

    /// `#RRGGBB`.
    public var hex: String {
        let digits = Array("0123456789abcdef")
        var text = "#"
        for byte in [red, green, blue] {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 15)])
        }
        return text
    }

    /// Opaque black.
    public static let black = DrawingColor(red: 0, green: 0, blue: 0)
    /// Opaque white.
    public static let white = DrawingColor(red: 255, green: 255, blue: 255)
    /// Fully transparent.
    public static let clear = DrawingColor(red: 0, green: 0, blue: 0, opacity: 0)
}
