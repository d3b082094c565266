// Reading a GLB (binary glTF 2.0): its JSON and binary chunks, accessors as typed arrays, the
// scene's triangle primitives with their world matrices, and their materials. Pure: no GL.

import { fromTRS, identity, multiply } from "./matrix.js";

const components = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT4: 16 };
const types = { 5120: Int8Array, 5121: Uint8Array, 5122: Int16Array, 5123: Uint16Array, 5125: Uint32Array, 5126: Float32Array };
const normalizers = { 5120: 127, 5121: 255, 5122: 32767, 5123: 65535 };

/// The chunks of a GLB in an ArrayBuffer: {json, bin} (bin: a Uint8Array, or null without one).
/// Throws for a buffer that is not a GLB or has no JSON chunk.
export function parseGLB(buffer) {
  const view = new DataView(buffer);
  if (view.byteLength < 12 || view.getUint32(0, true) !== 0x46546c67) throw new Error("not a GLB file");
  let offset = 12, json = null, bin = null;
  while (offset + 8 <= view.byteLength) {
    const length = view.getUint32(offset, true), type = view.getUint32(offset + 4, true);
    if (type === 0x4e4f534a) json = JSON.parse(new TextDecoder().decode(new Uint8Array(buffer, offset + 8, length)));
    else if (type === 0x004e4942) bin = new Uint8Array(buffer, offset + 8, length);
    offset += 8 + length;
  }
  if (!json) throw new Error("the GLB has no JSON chunk");
  return { json, bin };
}

/// The bytes of buffer view `index` and its stride (0: tightly packed).
export function viewBytes(glb, index) {
  const v = glb.json.bufferViews[index];
  return { bytes: new Uint8Array(glb.bin.buffer, glb.bin.byteOffset + (v.byteOffset || 0), v.byteLength), stride: v.byteStride || 0 };
}

/// Accessor `index` read into a Float32Array (`asFloat`; normalized integers scaled to 0…1 or
/// −1…1) or a Uint32Array: {data, size (components per element), accessor}. An accessor without a
/// buffer view is zeros.
export function accessor(glb, index, asFloat) {
  const a = glb.json.accessors[index], n = components[a.type], Type = types[a.componentType];
  const out = asFloat ? new Float32Array(a.count * n) : new Uint32Array(a.count * n);
  if (a.bufferView === undefined) return { data: out, size: n, accessor: a };
  const { bytes, stride } = viewBytes(glb, a.bufferView);
  const step = stride || n * Type.BYTES_PER_ELEMENT, start = a.byteOffset || 0;
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const read = { 5120: (o) => dv.getInt8(o), 5121: (o) => dv.getUint8(o), 5122: (o) => dv.getInt16(o, true), 5123: (o) => dv.getUint16(o, true),
    5125: (o) => dv.getUint32(o, true), 5126: (o) => dv.getFloat32(o, true) }[a.componentType];
  const scale = a.normalized && normalizers[a.componentType] ? 1 / normalizers[a.componentType] : 1;
  for (let i = 0; i < a.count; i++) for (let c = 0; c < n; c++) {
    const value = read(start + i * step + c * Type.BYTES_PER_ELEMENT);
    out[i * n + c] = scale === 1 ? value : Math.max(value * scale, -1);
  }
  return { data: out, size: n, accessor: a };
}

/// A node's local matrix: its `matrix`, or its translation, rotation and scale.
export function nodeMatrix(node) {
  if (node.matrix) return new Float32Array(node.matrix);
  return fromTRS(node.translation || [0, 0, 0], node.rotation || [0, 0, 0, 1], node.scale || [1, 1, 1]);
}

/// Whether a primitive is drawn: triangles (mode 4, the default) with positions.
export const isTriangles = (primitive) => (primitive.mode ?? 4) === 4 && primitive.attributes.POSITION !== undefined;

/// The triangle primitives of the glTF's scene (its default scene, else every node as a root) with
/// their world matrices, [{primitive, world}] in document order; nodes nested deeper than 256 are
/// left out (a cycle cannot hang the page).
export function scenePrimitives(json) {
  const found = [];
  const visit = (index, parent, depth) => {
    const node = json.nodes[index];
    if (!node || depth > 256) return;
    const world = multiply(parent, nodeMatrix(node));
    if (node.mesh !== undefined) for (const primitive of json.meshes[node.mesh].primitives) if (isTriangles(primitive)) found.push({ primitive, world });
    for (const child of node.children || []) visit(child, world, depth + 1);
  };
  const scene = (json.scenes || [])[json.scene || 0];
  const roots = scene ? scene.nodes || [] : (json.nodes || []).map((_, i) => i);
  for (const root of roots) visit(root, identity(), 0);
  return found;
}

const alphaModes = { OPAQUE: 0, MASK: 1, BLEND: 2 };

/// A primitive's material as the shader takes it: base colour, metallic, roughness, emissive,
/// alpha mode (0 opaque, 1 mask, 2 blend) and cutoff, and the image of its base colour texture
/// (undefined for none).
export function materialOf(json, primitive) {
  const m = (json.materials || [])[primitive.material] || {};
  const pbr = m.pbrMetallicRoughness || {};
  return {
    base: pbr.baseColorFactor || [1, 1, 1, 1], metallic: pbr.metallicFactor ?? 1, roughness: pbr.roughnessFactor ?? 1,
    emissive: m.emissiveFactor || [0, 0, 0], alphaMode: alphaModes[m.alphaMode || "OPAQUE"] ?? 0, cutoff: m.alphaCutoff ?? 0.5,
    image: pbr.baseColorTexture ? ((json.textures || [])[pbr.baseColorTexture.index] || {}).source : undefined,
  };
}
