// Bubbles on the phone, the parts without a GPU: the spectral weights (a white reflector is sRGB
// white), the blow gate's states and messages, the pane's rounded mesh, and the trail's ribbon
// (parallel transport, shared edges, the slice cap, small updates).
import assert from "node:assert/strict";
import { test } from "node:test";
import { blowGate, messages, steadyFrames, surfaceMemory } from "../../Sources/ARVisServer/Web/Files/xr/bubbles/gating.js";
import { cornerRadius, paneMesh, paneSize, roundedOutline } from "../../Sources/ARVisServer/Web/Files/xr/bubbles/pane-mesh.js";
import { sampleCount, spectralWeights } from "../../Sources/ARVisServer/Web/Files/xr/bubbles/spectrum.js";
import { maxSlices, sliceRadius, trail, transport, vertexFloats } from "../../Sources/ARVisServer/Web/Files/xr/bubbles/trail.js";

const close = (actual, expected, tolerance, what) =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${what}: ${actual} is not within ${tolerance} of ${expected}`);

test("a perfect white reflector under D65 is sRGB white, Y = 1", () => {
  const weights = spectralWeights();
  assert.equal(weights.length, 3 * sampleCount);
  const white = [0, 0, 0];
  for (let k = 0; k < sampleCount; k++) for (let c = 0; c < 3; c++) white[c] += weights[3 * k + c];
  for (let c = 0; c < 3; c++) close(white[c], 1, 0.002, `channel ${c}`);
});

test("the blow gate waits for steady tracking, then for a surface seen in the last second", () => {
  const gate = blowGate();
  let now = 0;
  const frame = (pose, surfaceSeen = false) => gate.update({ pose, surfaceSeen, now: (now += 16) });
  assert.equal(frame(null).message, messages.initializing);
  assert.equal(frame({ emulatedPosition: true }, true).message, messages.initializing);
  for (let k = 1; k < steadyFrames; k++) assert.equal(frame({ emulatedPosition: false }, true).state, "initializing");
  const first = frame({ emulatedPosition: false });
  assert.deepEqual([first.ready, first.message], [true, messages.ready], "a surface 16 ms ago still counts");
  now += surfaceMemory;
  assert.deepEqual(frame({ emulatedPosition: false }), { ready: false, state: "scanning", message: messages.scanning });
  assert.equal(frame({ emulatedPosition: false }, true).message, messages.ready);
  assert.deepEqual(frame({ emulatedPosition: true }, true), { ready: false, state: "moving", message: "Move slower" });
  for (let k = 1; k < steadyFrames; k++) assert.equal(frame({ emulatedPosition: false }, true).state, "moving");
  assert.equal(frame({ emulatedPosition: false }, true).ready, true, "30 steady frames again");
  assert.equal(frame(null).message, messages.lost);
});

test("the pane is the seed's rounded rectangle, facing +z, about 200 vertices", () => {
  const [width, height] = paneSize, outline = roundedOutline(width, height, cornerRadius);
  // Every outline point lies on the rounded rectangle's edge (its signed distance is 0).
  for (let k = 0; k < outline.length; k += 2) {
    const qx = Math.abs(outline[k]) - (width / 2 - cornerRadius), qy = Math.abs(outline[k + 1]) - (height / 2 - cornerRadius);
    const distance = Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - cornerRadius;
    close(distance, 0, 1e-9, `outline point ${k / 2}`);
  }
  const { vertices, indices } = paneMesh();
  const count = vertices.length / 4;
  assert.ok(count >= 180 && count <= 240, `${count} vertices`);
  let area = 0;
  for (let t = 0; t < indices.length; t += 3) {
    const [a, b, c] = [indices[t], indices[t + 1], indices[t + 2]].map((i) => [vertices[4 * i], vertices[4 * i + 1]]);
    const twice = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
    assert.ok(twice > 0, `triangle ${t / 3} faces +z`);
    area += twice / 2;
  }
  // The mesh covers the rounded rectangle, less what the corners' chords cut off.
  close(area, width * height - (4 - Math.PI) * cornerRadius ** 2, 2e-4, "area");
  for (let i = 0; i < count; i++) {
    close(vertices[4 * i + 2], vertices[4 * i] / width + 0.5, 1e-6, "u");
    close(vertices[4 * i + 3], vertices[4 * i + 1] / height + 0.5, 1e-6, "v");
  }
});

test("parallel transport turns the normal with the tangent and no more", () => {
  const x = [1, 0, 0], y = [0, 1, 0], z = [0, 0, 1];
  assert.deepEqual(transport(z, x, y).map((v) => Math.round(v * 1e9) / 1e9), [0, 0, 1], "out of the turn's plane: unchanged");
  const inPlane = transport(y, x, y);
  [-1, 0, 0].forEach((v, k) => close(inPlane[k], v, 1e-12, "in the plane: turned 90°"));
});

test("a trail along a level circle keeps an up normal; its ribbon is the slices' edges, shared", () => {
  const path = trail([0, 1, 0]);
  const changes = [];
  for (let k = 0; k <= 400; k++) {
    const angle = k / 400 * 2 * Math.PI;
    const change = path.add([Math.cos(angle), 1.2, Math.sin(angle)]);
    if (change) changes.push(change);
  }
  const slices = path.slices, n = slices.length;
  assert.ok(n > 300, `${n} slices`);
  assert.ok(changes.every((change) => change.count <= 2), "each addition rewrites at most two slices");
  for (const [i, slice] of slices.entries()) {
    close(Math.hypot(...slice.normal), 1, 1e-9, `slice ${i} normal length`);
    close(slice.normal[0] * slice.tangent[0] + slice.normal[1] * slice.tangent[1] + slice.normal[2] * slice.tangent[2], 0, 1e-9, `slice ${i} normal ⟂ tangent`);
    // On a planar curve the transported normal that starts out of the plane stays there.
    close(slice.normal[1], 1, 1e-9, `slice ${i} normal still up`);
    for (let side = 0; side < 2; side++) {
      const at = (2 * i + side) * vertexFloats, edge = side ? sliceRadius : -sliceRadius;
      for (let c = 0; c < 3; c++) close(path.vertices[at + c], slice.position[c] + slice.normal[c] * edge, 1e-5, `slice ${i} edge ${side}`);
    }
  }
  // Every quad joins slice i's two edge vertices to slice i + 1's: no gap between them.
  for (let i = 0; i + 1 < n; i++) {
    assert.deepEqual(new Set(path.indices.subarray(6 * i, 6 * i + 6)), new Set([2 * i, 2 * i + 1, 2 * i + 2, 2 * i + 3]));
  }
  assert.equal(path.indexCount(), 6 * (n - 1));
});

test("a trail ignores steps under a centimetre and stops at the slice cap", () => {
  const path = trail([0, 1, 0]);
  assert.equal(path.add([0, 0, 0]), null, "the first point has no direction yet");
  assert.equal(path.add([0.005, 0, 0]), null, "5 mm from the last slice");
  assert.deepEqual(path.add([0.01, 0, 0]), { first: 0, count: 2 });
  let added = 2;
  for (let k = 2; added < maxSlices; k++) if (path.add([0.01 * k, 0.1 * Math.sin(k / 10), 0])) added += 1;
  assert.equal(path.slices.length, maxSlices);
  assert.ok(path.full());
  assert.equal(path.add([100, 0, 0]), null);
  assert.equal(path.slices.length, maxSlices);
});

test("a pane is blown 0.8 m along the viewer's forward, turned as the viewer; on a surface, facing out of it", async () => {
  const { blownPane, blowDistance } = await import("../../Sources/ARVisServer/Web/Files/xr/tools/bubble-tool.js");
  const { fromTRS } = await import("../../Sources/ARVisServer/Web/Files/viewer/matrix.js");
  const half = Math.SQRT1_2, viewer = Array.from(fromTRS([1, 1.5, -2], [0, half, 0, half], [1, 1, 1]));  // looking along −x
  const pane = blownPane(viewer, null);
  [1 - blowDistance, 1.5, -2].forEach((v, c) => close(pane[12 + c], v, 1e-6, `position ${c}`));
  for (let k = 0; k < 12; k++) close(pane[k], viewer[k], 1e-12, `turn ${k}`);
  const floor = Array.from(fromTRS([0.3, 0, 0.4], [0, 0, 0, 1], [1, 1, 1]));
  const onFloor = blownPane(viewer, floor);
  [0, 1, 0].forEach((v, c) => close(onFloor[8 + c], v, 1e-6, `facing up ${c}`));
  [0.3, 0, 0.4].forEach((v, c) => close(onFloor[12 + c], v, 1e-6, `at the hit ${c}`));
});

test("a trail's points survive their millimetre encoding, and rebuild the same ribbon", async () => {
  const { ribbonOf } = await import("../../Sources/ARVisServer/Web/Files/xr/bubbles/bubble-layer.js");
  const { decodePoints, encodePoints } = await import("../../Sources/ARVisServer/Web/Files/protocol/bubble-payload.js");
  const painted = trail([0, 1, 0]);
  for (let k = 0; k < 3000 && !painted.full(); k++) painted.add([Math.cos(k / 90) * 2, 1 + 0.3 * Math.sin(k / 40), Math.sin(k / 90) * 2 + k / 500]);
  const points = painted.slices.map((slice) => slice.position), origin = points[0];
  const flat = encodePoints(origin, points);
  assert.ok(JSON.stringify(flat).length < 16000, `${JSON.stringify(flat).length} bytes for ${points.length} slices`);
  decodePoints(origin, flat).forEach((point, k) => point.forEach((v, c) => close(v, points[k][c], 0.0005 + 1e-9, `point ${k}`)));
  const rebuilt = ribbonOf({ pose: { position: origin }, payload: { up: [0, 1, 0], points: flat } });
  assert.equal(rebuilt.slices.length, painted.slices.length);
  // Rounding moves a 1 cm step's direction by up to a tenth of a radian, and the first slice's
  // normal with it; every phone rebuilds the same ribbon from what was stored.
  const turn = Math.max(...rebuilt.slices.map((slice, k) => Math.acos(Math.min(1, slice.normal.reduce((sum, v, c) => sum + v * painted.slices[k].normal[c], 0)))));
  assert.ok(turn < 0.15, `normals ${turn} rad apart`);
  const again = ribbonOf({ pose: { position: origin }, payload: { up: [0, 1, 0], points: flat } });
  assert.deepEqual(Array.from(again.vertices), Array.from(rebuilt.vertices));
});
