// The AR view's pure parts: placement rules (xr/placement.js), the scene graph re-based on
// placements (xr/scene-model.js), intrinsics and taps (xr/view-intrinsics.js), the panel's
// rectangle, the texture scale and the snapshot mode of browsers without WebXR.
import assert from "node:assert/strict";
import { test } from "node:test";
import { imageFrameOnHit, invert, placedNode, quadOfImage, rotationX, rotationY, translation, worldPlacement } from "../../Sources/ARVisServer/Web/Files/xr/placement.js";
import { drawnQuads, needsRedraw, nodeMatrix, readScene, targetPoses } from "../../Sources/ARVisServer/Web/Files/xr/scene-model.js";
import { intrinsicsOf, tapOnView } from "../../Sources/ARVisServer/Web/Files/xr/view-intrinsics.js";
import { panelRect } from "../../Sources/ARVisServer/Web/Files/xr/widget-panel.js";
import { textureBudget, textureScale } from "../../Sources/ARVisServer/Web/Files/xr/widget-textures.js";
import { fallbackMode } from "../../Sources/ARVisServer/Web/Files/xr/ar-mode.js";
import { multiply, perspective, transformPoint } from "../../Sources/ARVisServer/Web/Files/viewer/matrix.js";

function near(actual, expected, tolerance = 1e-6, message = "") {
  assert.equal(actual.length, expected.length, message);
  Array.from(actual).forEach((value, index) => assert.ok(Math.abs(value - expected[index]) <= tolerance, `${message} [${index}]: ${value} ≠ ${expected[index]}`));
}

const identity = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

test("invert undoes a pose with a turn, a move and a scale", () => {
  const pose = Array.from(multiply(multiply(translation([1, 2, -3]), rotationY(0.7)), [2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1]));
  near(Array.from(multiply(pose, invert(pose))), identity, 1e-6);
});

test("a tap puts the scene's origin on the hit, its +Z towards the viewer", () => {
  const hit = translation([1, 0, -2]);
  const world = worldPlacement(hit, [1, 1.6, 0]);
  near(transformPoint(world, [0, 0, 0]), [1, 0, -2]);
  near(transformPoint(world, [0, 0, 1]), [1, 0, -1], 1e-6, "+Z points at the viewer");
  const aside = worldPlacement(hit, [3, 1.6, -2]);
  near(transformPoint(aside, [0, 0, 1]), [2, 0, -2], 1e-6, "a viewer to the right turns it right");
});

test("an image placed on a wall hangs upright, facing the room", () => {
  // A hit on the wall z = −2: +Y of the hit pose is the wall's normal (+z).
  const hit = Array.from(multiply(translation([0.5, 1.5, -2]), rotationX(Math.PI / 2)));
  const image = imageFrameOnHit(hit, [0, 1.6, 0]);
  near([image[4], image[5], image[6]], [0, 0, 1], 1e-6, "+Y out of the picture");
  near([image[8], image[9], image[10]], [0, -1, 0], 1e-6, "+Z to its bottom");
  near([image[0], image[1], image[2]], [1, 0, 0], 1e-6, "+X to its right");
  const quad = quadOfImage(image);
  near(transformPoint(quad, [0, 1, 0]), [0.5, 2.5, -2], 1e-6, "the quad's +Y is the picture's up");
  near(transformPoint(quad, [0, 0, 1]), [0.5, 1.5, -1], 1e-6, "the quad faces out of the wall");
});

test("an image placed on the floor lies with its bottom towards the viewer", () => {
  const image = imageFrameOnHit(translation([0, 0, -1]), [0, 1.6, 0]);
  near([image[8], image[9], image[10]], [0, 0, 1], 1e-6);
  near([image[0], image[1], image[2]], [1, 0, 0], 1e-6);
});

const scene = readScene({ nodes: [
  { id: "image1", kind: "target", parent: null, transform: Array.from(translation([0.1, 1.5, 0])), size: [0.2, 0.2], asset: "a.jpg" },
  { id: "image1-widget1", kind: "widget", parent: "image1", transform: Array.from(translation([0.1, 1.8, 0])), size: [0.3, 0.1] },
  { id: "world-lobby", kind: "target", parent: null, transform: Array.from(translation([0, 0, -1])) },
  { id: "world-lobby-widget1", kind: "widget", parent: "world-lobby", transform: Array.from(translation([0, 0.5, -1])), size: [0.4, 0.3] },
  { id: "annotation-1", kind: "annotation", parent: null, transform: Array.from(translation([0, 1, 0])), size: [0.05, 0.05], text: "Hi" },
] });

test("the scene knows which targets a tap each and which the world placement puts", () => {
  assert.deepEqual(scene.images, ["image1"]);
  assert.ok(scene.needsWorld);
  assert.equal(scene.rootOf("image1-widget1"), "image1");
  assert.equal(scene.rootOf("annotation-1"), null);
  assert.deepEqual(drawnQuads(scene).map((node) => node.id), ["image1-widget1", "world-lobby-widget1", "annotation-1"]);
});

test("a widget keeps its pose relative to its target wherever the target is put", () => {
  const image = Array.from(multiply(translation([2, 1, -3]), rotationY(0.5)));
  const world = worldPlacement(translation([1, 0, -2]), [1, 1.6, 0]);
  const poses = targetPoses(scene, world, { image1: image });
  near(nodeMatrix(scene, "image1-widget1", poses, world), Array.from(multiply(image, translation([0, 0.3, 0]))), 1e-6);
  near(nodeMatrix(scene, "world-lobby-widget1", poses, world), Array.from(multiply(world, translation([0, 0.5, -1]))), 1e-6);
  near(poses["world-lobby"], Array.from(multiply(world, translation([0, 0, -1]))), 1e-6);
  near(placedNode(world, identity, translation([0, 1, 0])), nodeMatrix(scene, "annotation-1", poses, world), 1e-6);
  assert.equal(nodeMatrix(scene, "image1-widget1", targetPoses(scene, world, {}), world), null, "not placed yet");
});

test("a save redraws the changed widgets and the children their links open, nothing else", () => {
  const changed = new Set(["world-lobby-widget1"]);
  assert.ok(needsRedraw("world-lobby-widget1", changed, scene));
  assert.ok(!needsRedraw("image1-widget1", changed, scene));
  assert.ok(needsRedraw("world-lobby-widget1-__text-9f", changed, scene), "a link child of a changed widget");
});

test("intrinsics and taps follow the view's projection", () => {
  const projection = perspective(Math.PI / 3, 360 / 780, 0.01, 1000);
  const [fx, fy, cx, cy] = intrinsicsOf(projection, 360, 780);
  assert.ok(Math.abs(fy - 390 / Math.tan(Math.PI / 6)) < 1e-3 && Math.abs(fx - fy) < 1e-3);
  assert.ok(Math.abs(cx - 180) < 1e-6 && Math.abs(cy - 390) < 1e-6);
  near(tapOnView([0, 0, -1], identity, projection), [0.5, 0.5], 1e-9);
  const right = tapOnView([fx === 0 ? 0 : 90 / fx, 0, -1], identity, projection);
  near(right, [0.75, 0.5], 1e-6, "a quarter of the width right");
  assert.equal(tapOnView([0, 0, 1], identity, projection), null);
});

test("the widget panel stays on screen and readable", () => {
  assert.deepEqual(panelRect([[10, 10], [50, 10], [50, 40], [10, 40]], 360, 780), { left: 10, top: 10, width: 240, height: 160 });
  assert.deepEqual(panelRect([null, null, null, null], 360, 780), { left: 90, top: 195, width: 240, height: 390 });
  const wide = panelRect([[-100, 100], [900, 100], [900, 300], [-100, 300]], 360, 780);
  assert.ok(wide.left >= 8 && wide.left + wide.width <= 352);
});

test("textures follow the pixel ratio until the budget is spent", () => {
  assert.equal(textureScale(2.75, 0), 3);
  assert.equal(textureScale(1, 0), 1);
  assert.equal(textureScale(4, 0), 3);
  assert.equal(textureScale(3, textureBudget), 1);
});

test("browsers without WebXR are told which snapshot they get and why", () => {
  assert.equal(fallbackMode("Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X)", false).kind, "quick-look");
  assert.equal(fallbackMode("Mozilla/5.0 (Linux; Android 14)", false).kind, "scene-viewer");
  assert.equal(fallbackMode("Mozilla/5.0 (X11; Linux x86_64)", false).kind, "none");
  assert.match(fallbackMode("Mozilla/5.0 (Linux; Android 14)", false).explanation, /no WebXR/);
});
