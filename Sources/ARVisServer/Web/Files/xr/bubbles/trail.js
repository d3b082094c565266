// A trail: the film a wand leaves when swept along the device's path, as a ribbon of slices (the
// seed's SliceRing: at most 1 024, each a position and a frame). Each slice's frame is carried
// from the one before by parallel transport — its normal turned by the angle between the two
// tangents about their cross product, then made orthogonal again — so the ribbon never twists on
// its own. The ribbon is the slices' edges, position ± radius × normal, joined slice to slice:
// adjacent slices share their edge vertices, so there is no crack between them at any distance.
//
// Built as the device moves: a slice is added once the path has gone `spacing` from the last, and
// each addition writes the vertices of at most two slices (the last one's tangent is only known
// when the next arrives), so a frame's mesh update is a few dozen bytes, never the whole ribbon.

import { cross, dot, norm, sub } from "../../viewer/matrix.js";

/// The most slices a trail holds, the ribbon's half-width (m), and the path between slices (m).
export const maxSlices = 1024;
export const sliceRadius = 0.15;
export const sliceSpacing = 0.01;

/// Floats per ribbon vertex: x, y, z; the distance along the path (m); across, 0 or 1.
export const vertexFloats = 5;

const scale = (a, s) => [a[0] * s, a[1] * s, a[2] * s];

/// `vector` turned by `angle` about the unit `axis` (Rodrigues).
function rotate(vector, axis, angle) {
  const c = Math.cos(angle), s = Math.sin(angle), k = cross(axis, vector), d = dot(axis, vector) * (1 - c);
  return [vector[0] * c + k[0] * s + axis[0] * d, vector[1] * c + k[1] * s + axis[1] * d, vector[2] * c + k[2] * s + axis[2] * d];
}

/// `normal` carried from a slice with tangent `from` to one with tangent `to` (both unit): turned
/// by asin |from × to| (the angle, taken with atan2 so it holds past 90°) about from × to, then
/// made orthogonal to `to` and unit again.
export function transport(normal, from, to) {
  const axis = cross(from, to), length = Math.hypot(axis[0], axis[1], axis[2]);
  const turned = length > 1e-9 ? rotate(normal, scale(axis, 1 / length), Math.atan2(length, dot(from, to))) : normal;
  return norm(sub(turned, scale(to, dot(turned, to))));
}

/// A trail, started with the device's `up` (the first slice's normal is `up` made orthogonal to the
/// path). `add(position)` takes the device's position each frame and returns what changed, {first,
/// count} in slices, or null (not far enough from the last slice, or the trail is full: `full()`).
/// `vertices` (2 per slice) and `indices` (6 per pair of slices, all written at the start) are the
/// ribbon's buffers; draw `indexCount()` of them.
export function trail(up, { radius = sliceRadius, spacing = sliceSpacing, capacity = maxSlices } = {}) {
  const slices = [];
  const vertices = new Float32Array(capacity * 2 * vertexFloats);
  const indices = new Uint16Array(Math.max(0, capacity - 1) * 6);
  for (let i = 0; i + 1 < capacity; i++) indices.set([2 * i, 2 * i + 1, 2 * i + 3, 2 * i, 2 * i + 3, 2 * i + 2], 6 * i);

  function write(i) {
    const { position, normal, distance } = slices[i];
    for (let side = 0; side < 2; side++) {
      const edge = side === 0 ? -radius : radius, at = (2 * i + side) * vertexFloats;
      vertices.set([position[0] + normal[0] * edge, position[1] + normal[1] * edge, position[2] + normal[2] * edge, distance, side], at);
    }
  }

  function add(position) {
    if (slices.length >= capacity) return null;
    const last = slices[slices.length - 1];
    if (!last) {
      slices.push({ position: [...position], tangent: null, normal: null, distance: 0 });
      return null;  // a slice has no frame before the path has a direction
    }
    const step = sub(position, last.position), length = Math.hypot(step[0], step[1], step[2]);
    if (!(length >= spacing) || length === 0) return null;  // too close, or not a number
    const tangent = scale(step, 1 / length);
    if (!last.tangent) {
      // The first slice takes the path's first direction, and `up` made orthogonal to it (any
      // other orthogonal direction when `up` lies along the path).
      last.tangent = tangent;
      const across = sub(up, scale(tangent, dot(up, tangent)));
      last.normal = Math.hypot(...across) > 1e-6 ? norm(across) : norm(cross(tangent, Math.abs(tangent[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0]));
    } else {
      // The last slice's tangent becomes the mean of the path's directions on either side of it
      // (the new one, where the path turned right back).
      const sum = [last.tangent[0] + tangent[0], last.tangent[1] + tangent[1], last.tangent[2] + tangent[2]];
      const mean = Math.hypot(...sum) > 1e-6 ? norm(sum) : tangent;
      last.normal = transport(last.normal, last.tangent, mean);
      last.tangent = mean;
    }
    slices.push({ position: [...position], tangent, normal: transport(last.normal, last.tangent, tangent), distance: last.distance + length });
    write(slices.length - 2);
    write(slices.length - 1);
    return { first: slices.length - 2, count: 2 };
  }

  return {
    slices, vertices, indices, add,
    full: () => slices.length >= capacity,
    /// Slices with a frame (the first has one once the path has a direction).
    count: () => (slices.length > 1 ? slices.length : 0),
    indexCount: () => Math.max(0, slices.length - 1) * 6,
  };
}
