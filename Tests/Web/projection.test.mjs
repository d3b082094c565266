// The planting map's projection (studio/planting/projection.js): Web Mercator between longitude
// and latitude and the canvas's pixels, zoom and pan, fit, the metric grid, tiles, and the
// project's local frame.
import assert from "node:assert/strict";
import { test } from "node:test";
import { earthRadius, fit, frameToLonLat, gridStep, latitudeLimit, metresPerPixel, project, shift, tilesInView, tileURL, toLonLat, toScreen, unproject, zoomBy }
  from "../../Sources/ARVisServer/Web/Files/studio/planting/projection.js";

/// Whether `actual` is within `tolerance` of `expected`, element by element.
function near(actual, expected, tolerance, message) {
  assert.equal(actual.length, expected.length, message);
  actual.forEach((value, index) => assert.ok(Math.abs(value - expected[index]) <= tolerance, `${message || ""} [${index}]: ${value} is not within ${tolerance} of ${expected[index]}`));
}

const lisbon = { center: [-9.14, 38.72], zoom: 17, width: 800, height: 600 };

test("the world at zoom 0 is 256 pixels square, (0, 0) at its centre, y down", () => {
  assert.deepEqual(project(0, 0), [128, 128]);
  assert.deepEqual(project(-180, 0), [0, 128]);
  assert.deepEqual(project(180, 0), [256, 128]);
  assert.deepEqual(project(90, 0), [192, 128]);
  assert.ok(project(0, 45)[1] < 128, "north is up");
  near(project(0, 45), [128, 256 * (0.5 - Math.log(Math.tan(Math.PI / 4 + Math.PI / 8)) / (2 * Math.PI))], 1e-12);
});

test("latitudes clamp at Web Mercator's limit, so the poles stay on the map", () => {
  assert.deepEqual(project(0, 90), project(0, latitudeLimit));
  assert.deepEqual(project(0, -90), project(0, -latitudeLimit));
  near(project(0, latitudeLimit), [128, 0], 0.02);
  assert.ok(Number.isFinite(project(0, 90)[1]));
});

test("unproject inverts project", () => {
  for (const [lon, lat] of [[0, 0], [-9.14, 38.72], [151.2093, -33.8688], [-179.999, 85], [179.999, -85], [12.5, 0.000001]]) {
    near(unproject(...project(lon, lat)), [lon, lat], 1e-9, `${lon}, ${lat}`);
  }
});

test("the view's centre is the canvas's centre, and pixels go back to where they came from", () => {
  assert.deepEqual(toScreen(lisbon, -9.14, 38.72), [400, 300]);
  near(toLonLat(lisbon, 400, 300), [-9.14, 38.72], 1e-12);
  for (const [x, y] of [[0, 0], [800, 600], [123.5, 456.25], [-50, 700]]) near(toScreen(lisbon, ...toLonLat(lisbon, x, y)), [x, y], 1e-6, `${x}, ${y}`);
});

test("one zoom level doubles distances on the canvas", () => {
  const east = [-9.139, 38.72];
  const [x17] = toScreen(lisbon, ...east), [x18] = toScreen({ ...lisbon, zoom: 18 }, ...east);
  near([x18 - 400], [2 * (x17 - 400)], 1e-9);
  // 0.001° of longitude at zoom 17: 256 × 2^17 pixels per 360°.
  near([x17 - 400], [0.001 / 360 * 256 * Math.pow(2, 17)], 1e-6);
});

test("metres per pixel: the equator's circumference over the world's pixels, shrinking with latitude", () => {
  assert.equal(metresPerPixel([0, 0], 0), 2 * Math.PI * earthRadius / 256);
  near([metresPerPixel([0, 0], 0)], [156543.03392804097], 1e-9);
  near([metresPerPixel([0, 60], 1)], [156543.03392804097 * 0.5 / 2], 1e-6);
});

test("shifting the centre by canvas pixels, as dragging and the arrow keys do", () => {
  const moved = shift(lisbon.center, lisbon.zoom, 80, 0);
  near(toScreen(lisbon, ...moved), [480, 300], 1e-6);
  near(shift(moved, lisbon.zoom, -80, 0), lisbon.center, 1e-12);
});

test("zooming around a point keeps it where it is on the canvas", () => {
  const around = toLonLat(lisbon, 650, 120);
  const zoomed = { ...lisbon, ...zoomBy(lisbon.center, lisbon.zoom, 0.5, around) };
  assert.equal(zoomed.zoom, 17.5);
  near(toScreen(zoomed, ...around), [650, 120], 1e-6);
  assert.deepEqual(zoomBy(lisbon.center, 17, 1), { center: lisbon.center, zoom: 18 }, "without a point the centre stays");
});

test("zoom stays between 2 and 22", () => {
  assert.equal(zoomBy([0, 0], 21.5, 1).zoom, 22);
  assert.equal(zoomBy([0, 0], 2.2, -1).zoom, 2);
  assert.deepEqual(zoomBy([5, 5], 22, 1, [6, 6]).center, unproject(...project(5, 5)), "at the limit, zooming around a point moves nothing");
});

test("fit centres the points' box and zooms so it fills 80% of the canvas", () => {
  assert.equal(fit([], 800, 600), null);
  const points = [[-9.15, 38.71], [-9.13, 38.73]];
  const { center, zoom } = fit(points, 800, 600);
  const view = { center, zoom, width: 800, height: 600 };
  const [a, b] = points.map((p) => toScreen(view, ...p));
  near([(a[0] + b[0]) / 2, (a[1] + b[1]) / 2], [400, 300], 1e-6);
  const width = b[0] - a[0], height = a[1] - b[1];
  assert.ok(Math.abs(width - 640) < 1e-6 || Math.abs(height - 480) < 1e-6, `${width} × ${height}`);
  assert.ok(width <= 640 + 1e-6 && height <= 480 + 1e-6);
});

test("fit of one point zooms in to 21, not to infinity", () => {
  assert.deepEqual(fit([[2.35, 48.85]], 800, 600), { center: unproject(...project(2.35, 48.85)), zoom: 21 });
});

test("the grid's step is the first round length at least 60 pixels long", () => {
  assert.deepEqual(gridStep(1), { step: 100, pixels: 100, label: "100 m" });
  assert.deepEqual(gridStep(0.01), { step: 1, pixels: 100, label: "1 m" });
  assert.deepEqual(gridStep(1 / 60), { step: 1, pixels: 60, label: "1 m" });
  assert.deepEqual(gridStep(25), { step: 2000, pixels: 80, label: "2 km" });
  assert.deepEqual(gridStep(10000), { step: 100000, pixels: 10, label: "100 km" }, "the largest step when none is long enough");
});

test("tiles cover the view at the rounded zoom, wrapped around the world, none past the poles", () => {
  const tiles = tilesInView({ center: [0, 0], zoom: 1, width: 512, height: 512 });
  assert.deepEqual(tiles.map((t) => [t.z, t.x, t.y, t.left, t.top, t.size]), [
    [1, 0, 0, 0, 0, 256], [1, 0, 1, 0, 256, 256], [1, 1, 0, 256, 0, 256], [1, 1, 1, 256, 256, 256],
    [1, 0, 0, 512, 0, 256], [1, 0, 1, 512, 256, 256],
  ]);
  // Centred on the antimeridian's east side and on the equator (a row boundary): the columns
  // west of it are the world's last.
  const wrapped = tilesInView({ center: [-179.9, 0], zoom: 3, width: 100, height: 10 });
  assert.deepEqual(wrapped.map((t) => [t.x, t.y]), [[7, 3], [7, 4], [0, 3], [0, 4]]);
  const half = tilesInView({ center: [0, 0], zoom: 2.4, width: 256, height: 256 });
  assert.equal(half[0].z, 2);
  near([half[0].size], [256 * Math.pow(2, 0.4)], 1e-9);
  assert.deepEqual([...new Set(tilesInView({ center: [0, 0], zoom: 22, width: 2, height: 2 }).map((t) => t.z))], [19], "tiles stop at zoom 19");
  assert.deepEqual(tilesInView({ center: [0, latitudeLimit], zoom: 2, width: 256, height: 256 }).map((t) => t.y), [0, 0], "no row north of the first");
});

test("a tile's URL fills the template", () => {
  assert.equal(tileURL("https://tile.openstreetmap.org/{z}/{x}/{y}.png", { z: 17, x: 62427, y: 50110 }), "https://tile.openstreetmap.org/17/62427/50110.png");
});

test("the project's frame: x east and z south at heading 0, turned clockwise by the heading", () => {
  const frame = { latitude: 38.7, longitude: -9.14, heading: 0 };
  const metre = 180 / Math.PI / earthRadius;
  assert.deepEqual(frameToLonLat(frame, { x: 0, z: 0 }), [-9.14, 38.7]);
  near(frameToLonLat(frame, { x: 1, z: 0 }), [-9.14 + metre / Math.cos(38.7 * Math.PI / 180), 38.7], 1e-15);
  near(frameToLonLat(frame, { x: 0, z: -1 }), [-9.14, 38.7 + metre], 1e-15);
  // Heading 90°: the frame's forward (−z) is east.
  near(frameToLonLat({ ...frame, heading: 90 }, { x: 0, z: -2 }), [-9.14 + 2 * metre / Math.cos(38.7 * Math.PI / 180), 38.7], 1e-14);
  assert.deepEqual(frameToLonLat({ latitude: 0, longitude: 0 }, { x: 0, z: 0 }), [0, 0], "no heading is heading 0");
});
