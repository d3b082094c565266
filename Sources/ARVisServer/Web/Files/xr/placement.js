// Where the environment goes in the room: the rules that turn a tap on a hit-test result, or a
// tracked image, into the pose of each scene target (docs/webxr.md, "Placement"). Matrices are
// 4×4, column-major (WebGL's and scene.json's order), as plain arrays or Float32Arrays. Pure.

import { cross, dot, multiply, norm } from "../viewer/matrix.js";

/// The inverse of a 4×4 matrix (general: scene poses may carry a scale); the identity for a
/// singular one.
export function invert(m) {
  const a = Array.from(m), out = new Array(16);
  out[0] = a[5] * a[10] * a[15] - a[5] * a[11] * a[14] - a[9] * a[6] * a[15] + a[9] * a[7] * a[14] + a[13] * a[6] * a[11] - a[13] * a[7] * a[10];
  out[4] = -a[4] * a[10] * a[15] + a[4] * a[11] * a[14] + a[8] * a[6] * a[15] - a[8] * a[7] * a[14] - a[12] * a[6] * a[11] + a[12] * a[7] * a[10];
  out[8] = a[4] * a[9] * a[15] - a[4] * a[11] * a[13] - a[8] * a[5] * a[15] + a[8] * a[7] * a[13] + a[12] * a[5] * a[11] - a[12] * a[7] * a[9];
  out[12] = -a[4] * a[9] * a[14] + a[4] * a[10] * a[13] + a[8] * a[5] * a[14] - a[8] * a[6] * a[13] - a[12] * a[5] * a[10] + a[12] * a[6] * a[9];
  out[1] = -a[1] * a[10] * a[15] + a[1] * a[11] * a[14] + a[9] * a[2] * a[15] - a[9] * a[3] * a[14] - a[13] * a[2] * a[11] + a[13] * a[3] * a[10];
  out[5] = a[0] * a[10] * a[15] - a[0] * a[11] * a[14] - a[8] * a[2] * a[15] + a[8] * a[3] * a[14] + a[12] * a[2] * a[11] - a[12] * a[3] * a[10];
  out[9] = -a[0] * a[9] * a[15] + a[0] * a[11] * a[13] + a[8] * a[1] * a[15] - a[8] * a[3] * a[13] - a[12] * a[1] * a[11] + a[12] * a[3] * a[9];
  out[13] = a[0] * a[9] * a[14] - a[0] * a[10] * a[13] - a[8] * a[1] * a[14] + a[8] * a[2] * a[13] + a[12] * a[1] * a[10] - a[12] * a[2] * a[9];
  out[2] = a[1] * a[6] * a[15] - a[1] * a[7] * a[14] - a[5] * a[2] * a[15] + a[5] * a[3] * a[14] + a[13] * a[2] * a[7] - a[13] * a[3] * a[6];
  out[6] = -a[0] * a[6] * a[15] + a[0] * a[7] * a[14] + a[4] * a[2] * a[15] - a[4] * a[3] * a[14] - a[12] * a[2] * a[7] + a[12] * a[3] * a[6];
  out[10] = a[0] * a[5] * a[15] - a[0] * a[7] * a[13] - a[4] * a[1] * a[15] + a[4] * a[3] * a[13] + a[12] * a[1] * a[7] - a[12] * a[3] * a[5];
  out[14] = -a[0] * a[5] * a[14] + a[0] * a[6] * a[13] + a[4] * a[1] * a[14] - a[4] * a[2] * a[13] - a[12] * a[1] * a[6] + a[12] * a[2] * a[5];
  out[3] = -a[1] * a[6] * a[11] + a[1] * a[7] * a[10] + a[5] * a[2] * a[11] - a[5] * a[3] * a[10] - a[9] * a[2] * a[7] + a[9] * a[3] * a[6];
  out[7] = a[0] * a[6] * a[11] - a[0] * a[7] * a[10] - a[4] * a[2] * a[11] + a[4] * a[3] * a[10] + a[8] * a[2] * a[7] - a[8] * a[3] * a[6];
  out[11] = -a[0] * a[5] * a[11] + a[0] * a[7] * a[9] + a[4] * a[1] * a[11] - a[4] * a[3] * a[9] - a[8] * a[1] * a[7] + a[8] * a[3] * a[5];
  out[15] = a[0] * a[5] * a[10] - a[0] * a[6] * a[9] - a[4] * a[1] * a[10] + a[4] * a[2] * a[9] + a[8] * a[1] * a[6] - a[8] * a[2] * a[5];
  const det = a[0] * out[0] + a[1] * out[4] + a[2] * out[8] + a[3] * out[12];
  if (!det) return [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
  return out.map((value) => value / det);
}

/// A turn of `angle` radians about x.
export function rotationX(angle) {
  const c = Math.cos(angle), s = Math.sin(angle);
  return [1, 0, 0, 0, 0, c, s, 0, 0, -s, c, 0, 0, 0, 0, 1];
}

/// A turn of `angle` radians about y.
export function rotationY(angle) {
  const c = Math.cos(angle), s = Math.sin(angle);
  return [c, 0, -s, 0, 0, 1, 0, 0, s, 0, c, 0, 0, 0, 0, 1];
}

/// A move by `t` ([x, y, z]).
export const translation = (t) => [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, t[0], t[1], t[2], 1];

/// The position (the fourth column) of a pose matrix.
export const positionOf = (m) => [m[12], m[13], m[14]];

/// The matrix whose columns are the axes x, y, z and the origin p.
const frame = (x, y, z, p) => [x[0], x[1], x[2], 0, y[0], y[1], y[2], 0, z[0], z[1], z[2], 0, p[0], p[1], p[2], 1];

/// The quad frame of an image (XY in its plane, +Z out of it) from the image's WebXR frame (+Y
/// out of it, +X to its right, +Z to its bottom), which is ARKit's image anchor's too.
export const quadOfImage = (image) => Array.from(multiply(image, rotationX(-Math.PI / 2)));

/// Where a tap on a hit pose `hit` puts the scene's origin, seen from `viewer` (its position):
/// on the tapped point, upright, the scene's +Z turned towards the viewer.
export function worldPlacement(hit, viewer) {
  const p = positionOf(hit);
  return Array.from(multiply(translation(p), rotationY(Math.atan2(viewer[0] - p[0], viewer[2] - p[2]))));
}

/// The frame of an image target placed by a tap on a hit pose (its +Y the surface's normal), seen
/// from `viewer`: on a wall the picture hangs upright; on a floor or table it lies with its bottom
/// edge nearest the viewer, read as it lies.
export function imageFrameOnHit(hit, viewer) {
  const n = norm([hit[4], hit[5], hit[6]]), p = positionOf(hit);
  const along = (d) => { const k = dot(n, d); return [d[0] - n[0] * k, d[1] - n[1] * k, d[2] - n[2] * k]; };
  let down = Math.abs(n[1]) < 0.7 ? along([0, -1, 0]) : along([viewer[0] - p[0], viewer[1] - p[1], viewer[2] - p[2]]);
  // Looking straight down at the point, any direction along the plane will do.
  if (Math.hypot(down[0], down[1], down[2]) < 1e-6) down = along([0, 0, 1]);
  const z = norm(down), x = cross(n, z);
  return frame(x, n, z, p);
}

/// The world matrix of scene node `node` hanging from target `target` placed at `placed` (the
/// target's pose in the room): placed × scene(target)⁻¹ × scene(node).
export const placedNode = (placed, target, node) => Array.from(multiply(multiply(placed, invert(target)), node));
