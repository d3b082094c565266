// The scripted WebXR runtime of the phone page's check (Tests/WebXR/xr-runtime.js): its math —
// ray–plane hits against the scripted floor and wall, rigid transforms and their inverses, the
// projection — and one session driven without a browser (a stub WebGL context), loaded with `vm`
// into a context holding the few globals it needs.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import vm from "node:vm";

const source = readFileSync(new URL("../WebXR/xr-runtime.js", import.meta.url), "utf8");

/// A fresh runtime in its own context: {xr (window.__xr), global (the context's globalThis)}.
function load(extra = {}) {
  const context = vm.createContext({ EventTarget, Event, DOMException, performance, setTimeout, navigator: {}, ...extra });
  vm.runInContext(source, context, { filename: "xr-runtime.js" });
  return { xr: context.__xr, global: context };
}

const { xr, global } = load();
const m = xr.math;

/// Whether `actual` is within `tolerance` of `expected`, element by element.
function near(actual, expected, tolerance = 1e-9, message = "") {
  assert.equal(actual.length, expected.length, message);
  Array.from(actual).forEach((value, index) => assert.ok(Math.abs(value - expected[index]) <= tolerance, `${message} [${index}]: ${value} is not within ${tolerance} of ${expected[index]}`));
}

/// A column-major 4×4 product a·b.
function multiply(a, b) {
  const out = new Array(16).fill(0);
  for (let c = 0; c < 4; c++) for (let r = 0; r < 4; r++) for (let k = 0; k < 4; k++) out[c * 4 + r] += a[k * 4 + r] * b[c * 4 + k];
  return out;
}

const identity = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
const floor = { point: [0, 0, 0], normal: [0, 1, 0] }, wall = { point: [0, 0, -2], normal: [0, 0, 1] };
const planes = [floor, wall];
const halfTurn = Math.SQRT1_2;

test("a ray meets a plane ahead of it, never behind it or along it", () => {
  assert.equal(m.rayPlane([0, 1.5, 0], [0, 0, -1], wall), 2);
  assert.equal(m.rayPlane([0, 1.5, 0], [0, -1, 0], floor), 1.5);
  assert.equal(m.rayPlane([0, 1.5, 0], [0, 0, 1], wall), null, "the wall is behind");
  assert.equal(m.rayPlane([0, 1.5, 0], [1, 0, 0], floor), null, "parallel to the floor");
  assert.equal(m.rayPlane([0, 1.5, -3], [0, 0, 1], wall), 1, "the wall is hit from behind too");
});

test("a hit is the first of the floor and the wall along the ray", () => {
  const straight = m.firstHit([0, 1.5, 0], [0, 0, -1], planes);
  near(straight.point, [0, 1.5, -2]);
  near(straight.normal, [0, 0, 1]);
  assert.equal(straight.plane, 1);
  // Down at 45°: the floor at 1.5 m, before the wall at 2 m.
  const down = m.firstHit([0, 1.5, 0], [0, -1, -1], planes);
  near(down.point, [0, 0, -1.5]);
  assert.equal(down.plane, 0);
  // Shallower: the wall first (at y = 0.5), the floor beyond it.
  const shallow = m.firstHit([0, 1.5, 0], [0, -0.5, -1], planes);
  near(shallow.point, [0, 0.5, -2]);
  near([shallow.t], [Math.hypot(0.5, 1) * 2]);
  assert.equal(m.firstHit([0, 1.5, 0], [0, 1, 1], planes), null, "up and away: no hit");
});

test("a hit pose's +Y is the surface normal and its +Z runs along the surface back towards the ray", () => {
  const q = m.surfaceOrientation([0, 1, 0], [0, -1, -1]);
  const x = m.quatRotate(q, [1, 0, 0]), y = m.quatRotate(q, [0, 1, 0]), z = m.quatRotate(q, [0, 0, 1]);
  near(y, [0, 1, 0], 1e-12);
  near(z, [0, 0, 1], 1e-12);
  near(x, [1, 0, 0], 1e-12);
  near(m.cross(x, y), z, 1e-12, "right-handed");
  // Straight at a wall: +Z is the wall's down; straight down at the floor: the world's +Z.
  near(m.quatRotate(m.surfaceOrientation([0, 0, 1], [0, 0, -1]), [0, 0, 1]), [0, -1, 0], 1e-12);
  near(m.quatRotate(m.surfaceOrientation([0, 1, 0], [0, -1, 0]), [0, 0, 1]), [0, 0, 1], 1e-12);
});

test("XRRigidTransform: the matrix is column-major with the position in its last column", () => {
  const t = new global.XRRigidTransform({ x: 1, y: 2, z: 3 }, { x: 0, y: halfTurn, z: 0, w: halfTurn });
  assert.equal(Object.prototype.toString.call(t.matrix), "[object Float32Array]");
  assert.equal(t.matrix, t.matrix, "the same array each time");
  // A quarter turn about +y takes +x to −z and +z to +x.
  near(t.matrix, [0, 0, -1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1, 2, 3, 1], 1e-6);
  assert.deepEqual([t.position.x, t.position.y, t.position.z, t.position.w], [1, 2, 3, 1]);
});

test("XRRigidTransform: the inverse undoes it, and its inverse is the transform itself", () => {
  const t = new global.XRRigidTransform({ x: 0.3, y: 1.5, z: -0.7 }, { x: 0.1, y: 0.7, z: -0.2, w: 0.6 });
  near(multiply(t.matrix, t.inverse.matrix), identity, 1e-6);
  near(multiply(t.inverse.matrix, t.matrix), identity, 1e-6);
  assert.equal(t.inverse.inverse, t);
  const o = t.orientation;
  near([Math.hypot(o.x, o.y, o.z, o.w)], [1], 1e-12, "the orientation is normalised");
});

test("XRRigidTransform: defaults to the identity; a position's w must be 1; a zero orientation throws", () => {
  near(new global.XRRigidTransform().matrix, identity);
  assert.throws(() => new global.XRRigidTransform({ x: 0, y: 0, z: 0, w: 0 }), { name: "TypeError" });
  assert.throws(() => new global.XRRigidTransform({}, { x: 0, y: 0, z: 0, w: 0 }));
});

test("rigid poses: compose and relative are inverse operations", () => {
  const a = { p: [1, 0, -2], q: m.quatNormalize([0, 0.3, 0, 1]) }, b = { p: [0.2, 1.5, 0.4], q: m.quatNormalize([0.2, 0, 0.1, 1]) };
  const ab = m.compose(a, b), back = m.relative(a, ab);
  near(back.p, b.p, 1e-12);
  near(back.q, b.q, 1e-12);
  near(m.rigidMatrix(ab.p, ab.q), multiply(m.rigidMatrix(a.p, a.q), m.rigidMatrix(b.p, b.q)), 1e-12);
  const inverse = m.rigidInverse(a);
  near(multiply(m.rigidMatrix(a.p, a.q), m.rigidMatrix(inverse.p, inverse.q)), identity, 1e-12);
});

test("the projection is OpenGL's: the field of view's edge at ±1, near at −1 and far at +1", () => {
  const fovY = 60 * Math.PI / 180, aspect = 360 / 780, p = m.perspective(fovY, aspect, 0.01, 1000);
  const f = 1 / Math.tan(fovY / 2);
  near(p, [f / aspect, 0, 0, 0, 0, f, 0, 0, 0, 0, -1000.01 / 999.99, -1, 0, 0, -2 * 1000 * 0.01 / 999.99, 0], 1e-12);
  const ndc = (point) => { const c = m.transform4(p, point); return c.slice(0, 3).map((v) => v / c[3]); };
  near(ndc([0, Math.tan(fovY / 2) * 2, -2]), [0, 1, ndc([0, 0, -2])[2]], 1e-12, "top edge");
  near(ndc([Math.tan(fovY / 2) * aspect * 3, 0, -3]).slice(0, 1), [1], 1e-12, "right edge");
  near([ndc([0, 0, -0.01])[2], ndc([0, 0, -1000])[2]], [-1, 1], 1e-9, "depth range");
});

test("a tap's ray goes from the viewer through that pixel, as the projection draws it", () => {
  const fovY = 60 * Math.PI / 180, viewport = [360, 780];
  near(m.tapDirection(180, 390, viewport, fovY), [0, 0, -1], 1e-12, "the centre");
  const p = m.perspective(fovY, viewport[0] / viewport[1], 0.01, 1000);
  for (const [x, y] of [[0, 0], [90, 600], [359, 5], [200, 779]]) {
    const d = m.tapDirection(x, y, viewport, fovY), c = m.transform4(p, d);
    near([(c[0] / c[3] + 1) / 2 * viewport[0], (1 - c[1] / c[3]) / 2 * viewport[1]], [x, y], 1e-9, `pixel ${x}, ${y}`);
  }
  const q = m.rayOrientation([0.3, -0.2, -1], [0, 1, 0]);
  near(m.quatRotate(q, [0, 0, -1]), m.normalize([0.3, -0.2, -1]), 1e-12, "the ray is the space's −Z");
  near([m.quatRotate(q, [1, 0, 0])[1]], [0], 1e-12, "with its +X level");
});

/// A WebGL 2 context that records nothing and answers what the runtime asks.
function stubGL() {
  const constants = { FRAMEBUFFER: 1, RENDERBUFFER: 2, RGBA8: 3, DEPTH24_STENCIL8: 4, COLOR_ATTACHMENT0: 5, DEPTH_ATTACHMENT: 6, DEPTH_STENCIL_ATTACHMENT: 7,
    FRAMEBUFFER_COMPLETE: 8, FRAMEBUFFER_BINDING: 9, RENDERBUFFER_BINDING: 10, DRAW_FRAMEBUFFER: 11, DRAW_FRAMEBUFFER_BINDING: 9, SCISSOR_TEST: 12 };
  const gl = { ...constants, isContextLost: () => false, getContextAttributes: () => ({ xrCompatible: true }), getParameter: () => [true, true, true, true], isEnabled: () => false,
    checkFramebufferStatus: () => constants.FRAMEBUFFER_COMPLETE, createFramebuffer: () => ({}), createRenderbuffer: () => ({}) };
  return new Proxy(gl, { get: (target, key) => (key in target ? target[key] : () => {}) });
}

test("a scripted session: viewer poses, hits on the floor, anchors, tracked images and taps", async () => {
  const reported = [];
  const { xr: runtime, global: g } = load({ reportError: (error) => reported.push(String(error)) });
  runtime.configure({ viewport: [360, 780], pixelRatio: 2, requireActivation: false, overlayInput: false });
  assert.equal(await g.navigator.xr.isSessionSupported("immersive-ar"), true);
  const session = await g.navigator.xr.requestSession("immersive-ar", { requiredFeatures: ["hit-test"], optionalFeatures: ["anchors", "local-floor", "light-estimation", "image-tracking"],
    trackedImages: [{ image: { width: 4, height: 4 }, widthInMeters: 0.3 }] });
  assert.deepEqual(Array.from(session.enabledFeatures), ["viewer", "local", "hit-test", "anchors", "local-floor", "light-estimation", "image-tracking"]);
  const layer = new g.XRWebGLLayer(session, stubGL());
  assert.deepEqual([layer.framebufferWidth, layer.framebufferHeight], [720, 1560]);
  session.updateRenderState({ baseLayer: layer, depthNear: 0.01, depthFar: 1000 });
  const space = await session.requestReferenceSpace("local-floor"), viewer = await session.requestReferenceSpace("viewer");
  const hits = await session.requestHitTestSource({ space: viewer });
  // Looking 45° down from 1.5 m: the floor 1.5 m ahead.
  runtime.setViewer({ position: [0, 1.5, 0], orientation: [-Math.sin(Math.PI / 8), 0, 0, Math.cos(Math.PI / 8)] });
  runtime.setImage(0, { position: [0, 1, -2], orientation: [halfTurn, 0, 0, halfTurn] });
  const seen = [];
  let anchor = null, lost = 0;
  const onFrame = (time, frame) => {
    session.requestAnimationFrame(onFrame);
    const pose = frame.getViewerPose(space);
    if (!pose) { lost += 1; return; }
    const hit = frame.getHitTestResults(hits)[0];
    if (seen.length) assert.throws(() => seen[0].result.getPose(space), { name: "InvalidStateError" }, "a result of a past frame");
    seen.push({ view: pose.views[0], result: hit, hit: hit.getPose(space).transform.matrix, images: frame.getImageTrackingResults(), anchors: frame.trackedAnchors.size });
    if (!anchor) anchor = hit.createAnchor();
  };
  session.requestAnimationFrame(onFrame);
  runtime.frame();
  runtime.frame();
  const [first, second] = seen;
  near(first.hit.slice(12, 15), [0, 0, -1.5], 1e-6, "the hit on the floor");
  near(first.hit.slice(4, 7), [0, 1, 0], 1e-6, "its +Y the floor's normal");
  near(first.view.projectionMatrix, m.perspective(Math.PI / 3, 360 / 780, 0.01, 1000), 1e-6);
  assert.equal(first.images[0].trackingState, "tracked");
  assert.equal(second.anchors, 1, "the anchor is tracked from the next frame");
  assert.ok((await anchor).anchorSpace);
  assert.deepEqual(await session.getTrackedImageScores(), ["trackable"]);
  const selects = [];
  session.addEventListener("select", (event) => selects.push(event.frame.getPose(event.inputSource.targetRaySpace, space).transform.position));
  assert.equal(runtime.tap(180, 390).dispatched, true);
  near([selects[0].x, selects[0].y, selects[0].z], [0, 1.5, 0], 1e-6);
  assert.equal(reported.length, 0, reported.join("\n"));
  runtime.setViewer(null);
  runtime.frame();
  assert.deepEqual([seen.length, lost], [2, 1], "tracking lost: no viewer pose");
  assert.throws(() => seen[0].view && first.result.getPose(space), { name: "InvalidStateError" }, "outside a frame");
  let ended = false;
  session.addEventListener("end", () => { ended = true; });
  await session.end();
  assert.ok(ended);
  assert.equal(runtime.session, null);
});

test("features: only those asked for and offered; image tracking off when configured unsupported", async () => {
  const { xr: runtime, global: g } = load();
  runtime.configure({ features: ["anchors"], imageTracking: false, requireActivation: false, viewport: [360, 780] });
  const session = await g.navigator.xr.requestSession("immersive-ar", { requiredFeatures: ["hit-test"], optionalFeatures: ["dom-overlay", "image-tracking", "local-floor"],
    trackedImages: [{ image: { width: 4, height: 4 }, widthInMeters: 0.3 }] });
  assert.deepEqual(Array.from(session.enabledFeatures), ["viewer", "local", "hit-test"]);
  await assert.rejects(session.requestReferenceSpace("local-floor"), { name: "NotSupportedError" });
  await assert.rejects(session.getTrackedImageScores(), { name: "NotSupportedError" });
  await assert.rejects(g.navigator.xr.requestSession("immersive-ar", {}), { name: "InvalidStateError" }, "one session at a time");
  await session.end();
  runtime.configure({ supported: false });
  assert.equal(await g.navigator.xr.isSessionSupported("immersive-ar"), false);
  await assert.rejects(g.navigator.xr.requestSession("immersive-ar", {}), { name: "NotSupportedError" });
});
