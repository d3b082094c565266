/// Where a widget attaches to its target.
///
/// Image, world and geo targets use the first seven. Object targets also take `center0 … bottom2`:
/// the digit picks a face of the object's bounding box (0 front +z, 1 right +x, 2 top +y) and the
/// name places the widget at that face's centre or beyond one of its edges, in the face's plane.
public enum AnchorPoint: String, Sendable, Hashable, CaseIterable, StringEnumeration {
    case center, leading, trailing, top, bottom, cover, auto
    case center0, leading0, trailing0, top0, bottom0
    case center1, leading1, trailing1, top1, bottom1
    case center2, leading2, trailing2, top2, bottom2

    package static var valueDescription: String { "an anchor point" }

    /// The face of an object's bounding box this anchor names, if it names one.
    public var objectFace: Int? {
        rawValue.last?.wholeNumberValue
    }
}

/// The kind of thing widgets are anchored to, which decides the anchor points they may use.
public enum TargetKind: String, Sendable, Hashable {
    case image, object, world, geo, widget

    /// Whether widgets of this target may use `anchor`.
    func allows(_ anchor: AnchorPoint) -> Bool {
        switch self {
        case .object: true
        case .widget: anchor.objectFace == nil && anchor != .cover
        default: anchor.objectFace == nil
        }
    }
}
