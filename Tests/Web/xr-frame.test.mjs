// The project's frame on the phone: the compass heading read from W3C device orientation angles
// (checked against the scripted runtime's own conversion of a pose to those angles), the frame
// from the marker's sightings (yaw, mean, implausible sizes and tilts refused), and the trees'
// instance packing.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import vm from "node:vm";
import { cameraHeading } from "../../Sources/ARVisServer/Web/Files/xr/frame/geo-reading.js";
import { markerSighting, markerWidth, meanFrame } from "../../Sources/ARVisServer/Web/Files/xr/frame/marker-frame.js";
import { instanceFloats, packInstances } from "../../Sources/ARVisServer/Web/Files/xr/trees/tree-renderer.js";

const source = readFileSync(new URL("../WebXR/xr-runtime.js", import.meta.url), "utf8");
const context = vm.createContext({ EventTarget, Event, DOMException, performance, setTimeout, navigator: {} });
vm.runInContext(source, context, { filename: "xr-runtime.js" });
const m = context.__xr.math;

/// The unit quaternion of a turn of `angle` radians about unit `axis`.
const turn = (axis, angle) => [axis[0] * Math.sin(angle / 2), axis[1] * Math.sin(angle / 2), axis[2] * Math.sin(angle / 2), Math.cos(angle / 2)];
const angleBetween = (a, b) => Math.abs(((a - b + 540) % 360) - 180);

test("the camera's heading from device angles is the heading of the pose's −z", () => {
  const random = m.seeded(7);
  for (let k = 0; k < 500; k++) {
    const north = random() * 360, yaw = random() * 2 * Math.PI, pitch = (random() - 0.5) * 1.2, roll = (random() - 0.5) * 0.8;
    const q = m.quatMultiply(m.quatMultiply(turn([0, 1, 0], yaw), turn([1, 0, 0], pitch)), turn([0, 0, 1], roll));
    const { alpha, beta, gamma } = m.deviceAngles(q, north);
    const forward = m.quatRotate(q, [0, 0, -1]);
    // The world's −z is at `north`; a turn about +y (counter-clockwise from above) takes headings down.
    const expected = ((north - Math.atan2(-forward[0], -forward[2]) * 180 / Math.PI) % 360 + 360) % 360;
    assert.ok(angleBetween(cameraHeading(alpha, beta, gamma), expected) < 1e-6, `pose ${k}: ${cameraHeading(alpha, beta, gamma)} vs ${expected}`);
  }
});

test("an upright phone facing north, east, south has heading 0, 90, 180", () => {
  assert.ok(angleBetween(cameraHeading(0, 90, 0), 0) < 1e-9);
  assert.ok(angleBetween(cameraHeading(270, 90, 0), 90) < 1e-9);
  assert.ok(angleBetween(cameraHeading(180, 90, 0), 180) < 1e-9);
  assert.equal(cameraHeading(0, 0, 0), null, "looking straight down has no heading");
});

test("a flat marker gives the frame's origin and turn; odd sizes and tilts are refused", () => {
  const yaw = 0.7, c = Math.cos(yaw), s = Math.sin(yaw);
  const flat = [c, 0, -s, 0, 0, 1, 0, 0, s, 0, c, 0, 1, 0, -2, 1];
  assert.deepEqual(markerSighting(flat, markerWidth).position, [1, 0, -2]);
  assert.ok(Math.abs(markerSighting(flat, markerWidth).yaw - yaw) < 1e-12);
  assert.match(markerSighting(flat, 0.5).ignored, /50 cm wide/);
  const wall = [1, 0, 0, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 1, -2, 1];
  assert.match(markerSighting(wall, markerWidth).ignored, /not lying flat/);
});

test("the mean of noisy sightings converges on the marker", () => {
  const random = m.seeded(3), sightings = [];
  for (let k = 0; k < 120; k++) sightings.push({ position: [2 + 0.002 * m.gaussian(random), 0.002 * m.gaussian(random), -1 + 0.002 * m.gaussian(random)], yaw: Math.PI - 0.01 + 0.02 * m.gaussian(random) });
  const { matrix, error, degrees } = meanFrame(sightings);
  assert.ok(degrees > 0.05 && degrees < 0.2, `the turn's standard error: ${degrees}°`);
  assert.ok(Math.hypot(matrix[12] - 2, matrix[13], matrix[14] + 1) < 0.001);
  assert.ok(angleBetween(Math.atan2(matrix[8], matrix[10]) * 180 / Math.PI, (Math.PI - 0.01) * 180 / Math.PI) < 0.3, "the mean turn crosses ±180° without jumping");
  assert.equal(error, 0.001, "the scatter over √120 is under a millimetre: the floor of a millimetre holds");
});

test("trees pack as instances: position, yaw, scale, red", () => {
  const data = packInstances([{ id: "a", position: { x: 1, z: 2 }, yaw: 0.5, scale: 2 }, { id: "b", position: { x: -1, y: 0.2, z: 0 } }], new Set(["b"]));
  assert.equal(data.length, 2 * instanceFloats);
  assert.deepEqual(Array.from(data), [1, 0, 2, 0.5, 2, 0, -1, Math.fround(0.2), 0, 0, 1, 1]);
});
