import ARVisSpatial
import ARVisSpec
import ARVisSupport
import Testing

struct ObjectTargetTests {
    private let box = ObjectTarget(center: Vec3(0, 0.1, 0), extent: Vec3(0.4, 0.2, 0.3))

    @Test func facesFaceOutwardsWithTheirSizes() {
        let front = box.face(0)
        let right = box.face(1)
        let top = box.face(2)
        #expect((front.pose.translation - Vec3(0, 0.1, 0.15)).length < 1e-12 && front.size == SIMD2(0.4, 0.2))
        #expect((front.pose.rotation.apply(Vec3(0, 1, 0)) - Vec3(0, 0, 1)).length < 1e-12)
        #expect((front.pose.rotation.apply(Vec3(0, 0, 1)) - Vec3(0, -1, 0)).length < 1e-12)
        #expect((right.pose.translation - Vec3(0.2, 0.1, 0)).length < 1e-12 && right.size == SIMD2(0.3, 0.2))
        #expect((right.pose.rotation.apply(Vec3(0, 1, 0)) - Vec3(1, 0, 0)).length < 1e-12)
        #expect((right.pose.rotation.apply(Vec3(1, 0, 0)) - Vec3(0, 0, -1)).length < 1e-12)
        #expect((top.pose.translation - Vec3(0, 0.2, 0)).length < 1e-12 && top.size == SIMD2(0.4, 0.3))
    }

    @Test func suffixedAnchorsPickTheirFace() {
        var widget = WidgetConfiguration(component: .spacer(Component.Spacer()), relativeAnchorPoint: .trailing1)
        widget.size = Size(width: 1024, height: 768)
        let placed = box.place([widget])
        // Trailing on the right face: beyond its right edge (−z), in the face's plane x = 0.2.
        #expect(placed[0].anchor == .trailing)
        #expect(abs(placed[0].pose.translation.x - 0.2) < 1e-12)
        #expect(abs(placed[0].pose.translation.z - -(0.15 + 0.2)) < 1e-12)
    }

    @Test func plainAnchorsUseTheFaceNearestTheViewer() {
        #expect(box.face(for: .center, viewpoint: Vec3(5, 0.1, 0)) == 1)
        #expect(box.face(for: .center, viewpoint: Vec3(0, 5, 0)) == 2)
        #expect(box.face(for: .center, viewpoint: nil) == 0)
        #expect(box.face(for: .top2, viewpoint: Vec3(5, 0, 0)) == 2)
    }
}
