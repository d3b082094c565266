// The orbit viewer's pure parts: matrices (viewer/matrix.js), GLB reading (viewer/glb.js) and the
// orbit camera (viewer/orbit.js).
import assert from "node:assert/strict";
import { test } from "node:test";
import { accessor, isTriangles, materialOf, nodeMatrix, parseGLB, scenePrimitives } from "../../Sources/ARVisServer/Web/Files/viewer/glb.js";
import { fromTRS, identity, lookAt, multiply, normalMatrix, perspective, transformPoint } from "../../Sources/ARVisServer/Web/Files/viewer/matrix.js";
import { clipping, emptyBounds, extendBounds, eyeOf, fieldOfView, framing, orbited, panned, zoomed } from "../../Sources/ARVisServer/Web/Files/viewer/orbit.js";

function near(actual, expected, tolerance = 1e-6, message) {
  assert.equal(actual.length, expected.length, message);
  Array.from(actual).forEach((value, index) => assert.ok(Math.abs(value - expected[index]) <= tolerance, `${message || ""} [${index}]: ${value} ≠ ${expected[index]}`));
}

/// A GLB of `json` and the `bin` bytes, chunks padded to 4 bytes as the format asks.
function glb(json, bin) {
  const pad = (bytes, fill) => { const out = new Uint8Array(Math.ceil(bytes.length / 4) * 4).fill(fill); out.set(bytes); return out; };
  const text = pad(new TextEncoder().encode(JSON.stringify(json)), 0x20);
  const data = bin ? pad(bin, 0) : null;
  const total = 12 + 8 + text.length + (data ? 8 + data.length : 0);
  const out = new Uint8Array(total), view = new DataView(out.buffer);
  view.setUint32(0, 0x46546c67, true); view.setUint32(4, 2, true); view.setUint32(8, total, true);
  view.setUint32(12, text.length, true); view.setUint32(16, 0x4e4f534a, true); out.set(text, 20);
  if (data) { const at = 20 + text.length; view.setUint32(at, data.length, true); view.setUint32(at + 4, 0x004e4942, true); out.set(data, at + 8); }
  return out.buffer;
}

/// A triangle's positions (3 × VEC3 float), indices (UNSIGNED_SHORT) and colours (normalized
/// UNSIGNED_BYTE VEC4, in a strided view), in one buffer.
function triangle() {
  const bin = new Uint8Array(36 + 8 + 24);
  const view = new DataView(bin.buffer);
  [0, 0, 0, 1, 0, 0, 0, 2, 0].forEach((value, index) => view.setFloat32(4 * index, value, true));
  [0, 1, 2].forEach((value, index) => view.setUint16(36 + 2 * index, value, true));
  // Colours with a stride of 8: 4 bytes of colour, 4 of padding.
  [[255, 0, 0, 255], [0, 255, 0, 128], [0, 0, 255, 0]].forEach((colour, index) => colour.forEach((value, c) => view.setUint8(44 + 8 * index + c, value)));
  const json = {
    asset: { version: "2.0" },
    buffers: [{ byteLength: bin.length }],
    bufferViews: [{ buffer: 0, byteOffset: 0, byteLength: 36 }, { buffer: 0, byteOffset: 36, byteLength: 6 }, { buffer: 0, byteOffset: 44, byteLength: 24, byteStride: 8 }],
    accessors: [
      { bufferView: 0, componentType: 5126, count: 3, type: "VEC3" },
      { bufferView: 1, componentType: 5123, count: 3, type: "SCALAR" },
      { bufferView: 2, componentType: 5121, normalized: true, count: 3, type: "VEC4" },
      { componentType: 5126, count: 2, type: "VEC2" },
    ],
    meshes: [{ primitives: [{ attributes: { POSITION: 0, COLOR_0: 2 }, indices: 1, material: 0 }, { attributes: { POSITION: 0 }, mode: 1 }] }],
    materials: [{ pbrMetallicRoughness: { baseColorFactor: [1, 0.5, 0.25, 1], metallicFactor: 0, baseColorTexture: { index: 0 } }, alphaMode: "MASK", alphaCutoff: 0.3 }],
    textures: [{ source: 1 }],
    nodes: [{ children: [1], translation: [10, 0, 0] }, { mesh: 0, scale: [2, 2, 2] }, { mesh: 0, matrix: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 5, 1] }],
    scenes: [{ nodes: [0] }, { nodes: [2] }],
    scene: 0,
  };
  return { json, bin };
}

test("matrices: identity, products (b first), translation, rotation and scale", () => {
  const m = fromTRS([1, 2, 3], [0, 0, 0, 1], [2, 2, 2]);
  assert.deepEqual(Array.from(multiply(identity(), m)), Array.from(m));
  assert.deepEqual(transformPoint(m, [1, 1, 1]), [3, 4, 5]);
  const quarter = fromTRS([0, 0, 0], [0, Math.SQRT1_2, 0, Math.SQRT1_2], [1, 1, 1]);
  near(transformPoint(quarter, [1, 0, 0]), [0, 0, -1]);
  near(transformPoint(multiply(fromTRS([5, 0, 0], [0, 0, 0, 1], [1, 1, 1]), quarter), [1, 0, 0]), [5, 0, -1], 1e-6, "rotate, then translate");
});

test("the normal matrix undoes non-uniform scale and keeps rotation", () => {
  near(normalMatrix(fromTRS([9, 9, 9], [0, 0, 0, 1], [2, 4, 1])), [0.5, 0, 0, 0, 0.25, 0, 0, 0, 1]);
  near(normalMatrix(identity()), [1, 0, 0, 0, 1, 0, 0, 0, 1]);
  assert.ok(Array.from(normalMatrix(new Float32Array(16))).every((value) => value === 0), "a singular matrix does not divide by zero");
});

test("lookAt puts the target straight ahead; perspective maps the near and far planes to −1 and 1", () => {
  const view = lookAt([0, 0, 5], [0, 0, 0], [0, 1, 0]);
  near(transformPoint(view, [0, 0, 0]), [0, 0, -5]);
  near(transformPoint(view, [1, 2, 0]), [1, 2, -5]);
  const projection = perspective(Math.PI / 2, 2, 1, 10);
  const clip = (z) => { const p = [0, 0, z, 1]; const w = projection[3] * p[0] + projection[7] * p[1] + projection[11] * p[2] + projection[15]; return (projection[10] * z + projection[14]) / w; };
  near([clip(-1), clip(-10)], [-1, 1]);
  near([projection[0], projection[5]], [0.5, 1]);
});

test("a GLB's chunks: its JSON and binary", () => {
  const { json, bin } = triangle();
  const parsed = parseGLB(glb(json, bin));
  assert.deepEqual(parsed.json, json);
  assert.deepEqual(Array.from(parsed.bin.slice(0, bin.length)), Array.from(bin));
  assert.equal(parseGLB(glb({ asset: { version: "2.0" } })).bin, null, "no binary chunk");
});

test("what is not a GLB is refused with a reason", () => {
  assert.throws(() => parseGLB(new TextEncoder().encode("{\"asset\":{}}").buffer), /not a GLB file/);
  assert.throws(() => parseGLB(new ArrayBuffer(0)), /not a GLB file/);
  const header = new ArrayBuffer(12); new DataView(header).setUint32(0, 0x46546c67, true);
  assert.throws(() => parseGLB(header), /no JSON chunk/);
});

test("accessors: floats, indices, normalized and strided colours, and zeros without a view", () => {
  const { json, bin } = triangle();
  const model = parseGLB(glb(json, bin));
  assert.deepEqual(Array.from(accessor(model, 0, true).data), [0, 0, 0, 1, 0, 0, 0, 2, 0]);
  const indices = accessor(model, 1, false);
  assert.ok(indices.data instanceof Uint32Array);
  assert.deepEqual(Array.from(indices.data), [0, 1, 2]);
  near(accessor(model, 2, true).data, [1, 0, 0, 1, 0, 1, 0, 128 / 255, 0, 0, 1, 0], 1e-7);
  assert.deepEqual(accessor(model, 3, true), { data: new Float32Array(4), size: 2, accessor: json.accessors[3] });
});

test("the scene's triangle primitives with their world matrices", () => {
  const { json } = triangle();
  const found = scenePrimitives(json);
  assert.equal(found.length, 1, "the line primitive (mode 1) is left out");
  assert.equal(found[0].primitive, json.meshes[0].primitives[0]);
  near(transformPoint(found[0].world, [1, 0, 0]), [12, 0, 0], 1e-6, "scaled by its node, then moved by its parent");
  near(transformPoint(scenePrimitives({ ...json, scene: 1 })[0].world, [0, 0, 0]), [0, 0, 5], 1e-6, "a node's matrix");
  const { scenes, scene, ...sceneless } = json;
  assert.equal(scenePrimitives(sceneless).length, 3, "without scenes every node is a root (node 1 twice: alone and as a child)");
  const looping = { nodes: [{ children: [0], mesh: 0 }], meshes: json.meshes, scenes: [{ nodes: [0] }] };
  assert.equal(scenePrimitives(looping).length, 257, "a node that is its own child stops after 256 levels");
  assert.equal(isTriangles({ attributes: {} }), false);
});

test("nodes without transforms are the identity", () => {
  assert.deepEqual(Array.from(nodeMatrix({})), Array.from(identity()));
});

test("materials with their defaults, and the image of the base colour texture", () => {
  const { json } = triangle();
  assert.deepEqual(materialOf(json, json.meshes[0].primitives[0]),
    { base: [1, 0.5, 0.25, 1], metallic: 0, roughness: 1, emissive: [0, 0, 0], alphaMode: 1, cutoff: 0.3, image: 1 });
  assert.deepEqual(materialOf(json, { attributes: {} }),
    { base: [1, 1, 1, 1], metallic: 1, roughness: 1, emissive: [0, 0, 0], alphaMode: 0, cutoff: 0.5, image: undefined });
  assert.equal(materialOf({ materials: [{ alphaMode: "BLEND" }] }, { material: 0 }).alphaMode, 2);
});

test("the first view frames the model's bounding sphere as the thumbnail does", () => {
  const bounds = emptyBounds();
  extendBounds(bounds, [-1, 0, -1]);
  extendBounds(bounds, [1, 2, 1]);
  assert.deepEqual(bounds, { low: [-1, 0, -1], high: [1, 2, 1] });
  const camera = framing(bounds);
  assert.deepEqual(camera.target, [0, 1, 0]);
  assert.equal(camera.radius, Math.sqrt(3));
  assert.equal(camera.distance, 1.05 * Math.sqrt(3) / Math.sin(fieldOfView / 2));
  assert.equal(camera.azimuth, Math.PI / 6);
  assert.equal(camera.elevation, Math.PI / 9);
  near([Math.hypot(...eyeOf(camera).map((v, k) => v - camera.target[k]))], [camera.distance], 1e-9, "the eye is at the distance");
  near(eyeOf({ ...camera, azimuth: 0, elevation: 0 }), [0, 1, camera.distance], 1e-9, "azimuth 0 looks along −z");
  const empty = framing(emptyBounds());
  assert.deepEqual([empty.target, empty.radius], [[0, 0, 0], 1], "nothing loaded: a unit sphere");
  const flat = emptyBounds(); extendBounds(flat, [2, 2, 2]);
  assert.equal(framing(flat).radius, 1, "a single point: radius 1");
});

test("turning, zooming and panning stay within their limits", () => {
  const camera = { azimuth: 0, elevation: 0, distance: 10, target: [0, 0, 0], radius: 1 };
  assert.deepEqual(orbited(camera, 100, 20), { azimuth: -1, elevation: 0.2 });
  assert.equal(orbited(camera, 0, 1000).elevation, 1.55);
  assert.equal(orbited(camera, 0, -1000).elevation, -1.55);
  assert.equal(zoomed(camera, 0.5), 5);
  assert.equal(zoomed(camera, 1e-6), 0.05);
  assert.equal(zoomed(camera, 100), 50);
  const step = 2 * 10 * Math.tan(fieldOfView / 2) / 100;
  near(panned(camera, 10, 0, 100), [-10 * step, 0, 0], 1e-12, "dragging right moves the target left");
  near(panned(camera, 0, 10, 100), [0, 10 * step, 0], 1e-12);
  near(panned(camera, 1, 0, 0), [-2 * 10 * Math.tan(fieldOfView / 2), 0, 0], 1e-12, "a canvas of no height counts as one pixel");
  assert.deepEqual(clipping(camera), [8.5, 11.5]);
  assert.deepEqual(clipping({ ...camera, radius: 100 }), [0.01, 160], "never nearer than a thousandth of the distance");
});
