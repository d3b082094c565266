// The room page's 3D (studio/rooms/camera-math.js): a device camera's pose projected into its
// own view, the letterboxed camera picture, and the orbit view from outside.
import assert from "node:assert/strict";
import { test } from "node:test";
import { inCamera, letterbox, orbitToScreen, rotate, segmentToCamera, tapAt, toCamera, viewCorner }
  from "../../Sources/ARVisServer/Web/Files/studio/rooms/camera-math.js";

function near(actual, expected, tolerance = 1e-9, message) {
  assert.equal(actual.length, expected.length, message);
  actual.forEach((value, index) => assert.ok(Math.abs(value - expected[index]) <= tolerance, `${message || ""} [${index}]: ${value} ≠ ${expected[index]}`));
}

const s = Math.SQRT1_2;
/// check_studio.py's publisher: 1.5 m up, looking along −z, 60° vertical field of view, 390 × 844.
const fy = 844 / 2 / 0.57735;
const device = { position: [0, 1.5, 2], orientation: [0, 0, 0, 1], intrinsics: [fy, fy, 195, 422], viewport: [390, 844] };

test("rotation by a unit quaternion", () => {
  near(rotate([0, 0, 0, 1], [1, 2, 3]), [1, 2, 3]);
  near(rotate([0, s, 0, s], [1, 0, 0]), [0, 0, -1], 1e-12, "a quarter turn about y takes x to −z");
  near(rotate([s, 0, 0, s], [0, 1, 0]), [0, 0, 1], 1e-12, "a quarter turn about x takes y to z");
});

test("a point in front of the camera lands on its view; one behind it nowhere", () => {
  near(inCamera(device, [0, 1.5, 0]), [0, 0, -2]);
  near(toCamera(device, [0, 1.5, 0]), [195, 422], 1e-9, "straight ahead is the principal point");
  near(toCamera(device, [0.5, 2, 0]), [195 + fy * 0.25, 422 - fy * 0.25], 1e-9, "right and up: x grows, y shrinks");
  assert.equal(toCamera(device, [0, 1.5, 3]), null);
  assert.equal(toCamera(device, [0, 1.5, 2]), null, "the camera's own position");
});

test("a turned camera sees what is in front of it", () => {
  const east = { ...device, orientation: [0, -s, 0, s] };  // a quarter turn clockwise from above: looking along +x
  near(toCamera(east, [3, 1.5, 2]), [195, 422], 1e-9);
  assert.equal(toCamera(east, [0, 1.5, 0]), null, "what was ahead is now to its left, beside the image plane");
});

test("segments are cut where they pass behind the camera", () => {
  const [a, b] = segmentToCamera(device, [0, 0, -10], [0, 0, 10]);
  near(a, toCamera(device, [0, 0, -10]));
  // Cut 1 cm in front of the camera: far below the bottom of the view.
  near([b[0]], [195]);
  assert.ok(b[1] > 844 * 10, String(b[1]));
  assert.equal(segmentToCamera(device, [0, 0, 3], [1, 0, 4]), null, "wholly behind");
  near(segmentToCamera(device, [-1, 1.5, 0], [1, 1.5, 0]).flat(), [195 - fy / 2, 422, 195 + fy / 2, 422]);
});

test("the corners of the view 40 cm ahead", () => {
  near(viewCorner(device, 195, 422, 0.4), [0, 1.5, 1.6]);
  near(viewCorner(device, 0, 0, 1), [-195 / fy, 1.5 + 422 / fy, 1]);
});

test("the picture letterboxed in its canvas, and taps in it", () => {
  assert.deepEqual(letterbox(800, 844, [390, 844]), { scale: 1, ox: 205, oy: 0 });
  assert.deepEqual(letterbox(195, 844, [390, 844]), { scale: 0.5, ox: 0, oy: 211 });
  assert.deepEqual(tapAt(400, 422, 800, 844, [390, 844]), [0.5, 0.5]);
  assert.deepEqual(tapAt(205, 0, 800, 844, [390, 844]), [0, 0]);
  assert.deepEqual(tapAt(595, 844, 800, 844, [390, 844]), [1, 1]);
  assert.equal(tapAt(100, 422, 800, 844, [390, 844]), null, "in the band left of the picture");
  assert.equal(tapAt(700, 422, 800, 844, [390, 844]), null, "in the band right of the picture");
  assert.equal(tapAt(400, 845, 800, 844, [390, 844]), null);
});

test("the orbit view: the target at the centre, nothing behind the eye", () => {
  const view = { target: [0, 0, 0], yaw: 0, pitch: 0, distance: 6, width: 400, height: 300 };
  near(orbitToScreen([0, 0, 0], view), [200, 150]);
  near(orbitToScreen([1, 0, 0], view), [200 + 360 / 6, 150], 1e-9, "focal length 1.2 × the shorter side");
  near(orbitToScreen([0, 1, 0], view), [200, 150 - 360 / 6]);
  assert.equal(orbitToScreen([0, 0, 6], view), null);
  near(orbitToScreen([0, 0, -1], { ...view, yaw: Math.PI / 2 }), [200 + 360 / 6, 150], 1e-9, "yaw turns the world about y");
});

test("the project's bubbles take their place in the room once the device has found the project's frame", async () => {
  const { paneCorners, roomBubbles } = await import("../../Sources/ARVisServer/Web/Files/studio/rooms/room-bubbles.js");
  const turned = paneCorners({ pose: { position: [1, 2, 3], orientation: [0, Math.SQRT1_2, 0, Math.SQRT1_2] }, payload: { kind: "pane", width: 0.6 } });
  [[1, 2.2, 2.7], [1, 2.2, 3.3], [1, 1.8, 3.3], [1, 1.8, 2.7]].forEach((corner, k) => corner.forEach((v, c) => assert.ok(Math.abs(turned[k][c] - v) < 1e-12, `corner ${k}`)));
  let changes = 0;
  const bubbles = roomBubbles("garden", () => changes++);
  bubbles.receive({ type: "anchor", anchor: { id: "p", pose: { position: [0, 1, 0], orientation: [0, 0, 0, 1] }, payload: { kind: "pane", width: 0.6, height: 0.4 } } });
  bubbles.receive({ type: "anchor", anchor: { id: "t", pose: { position: [0, 1, 0], orientation: [0, 0, 0, 1] }, payload: { kind: "trail", up: [0, 1, 0], points: [0, 0, 0, 10, 0, 0] } } });
  bubbles.receive({ type: "anchor", anchor: { id: "n", pose: { position: [0, 0, 0], orientation: [0, 0, 0, 1] }, payload: { kind: "note" } } });
  assert.equal(bubbles.count(), 2, "another app's anchor is not a bubble");
  assert.deepEqual(bubbles.drawn(), [], "no place in the room before the frame is known");
  bubbles.receive({ type: "projectFrame", position: [5, 0, 0], orientation: [0, 0, 0, 1] });
  const [pane, trail] = bubbles.drawn();
  assert.deepEqual(pane.points[0], [5.3, 1.2, 0]);
  assert.deepEqual(trail.points, [[5, 1, 0], [5.01, 1, 0]]);
  bubbles.receive({ type: "anchorDeleted", id: "p" });
  assert.equal(bubbles.drawn().length, 1);
  bubbles.receive({ type: "projectFrame" });
  assert.deepEqual(bubbles.drawn(), [], "the device lost the frame");
  assert.equal(changes, 5, "each change to what is drawn, not the note");
});
