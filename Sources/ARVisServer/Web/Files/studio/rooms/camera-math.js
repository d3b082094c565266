// A little 3D for the room's views: a device camera's pose projected into its own view, the
// letterboxed camera picture on a canvas, and the orbit view of the room from outside. Pure.
// Poses are {position: [x, y, z], orientation: [x, y, z, w], intrinsics: [fx, fy, cx, cy], viewport: [w, h]}.

export const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
export const minus = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
export const conjugate = (q) => [-q[0], -q[1], -q[2], q[3]];

/// `v` turned by the unit quaternion `q` (x, y, z, w): v + 2w(q×v) + 2q×(q×v).
export function rotate(q, v) {
  const t = cross(q, v).map((c) => 2 * c), u = cross(q, t);
  return [v[0] + q[3] * t[0] + u[0], v[1] + q[3] * t[1] + u[1], v[2] + q[3] * t[2] + u[2]];
}

/// A point of the world in the camera's frame (it looks along −z, y up).
export const inCamera = (pose, point) => rotate(conjugate(pose.orientation), minus(point, pose.position));

/// How far in front of the camera a point must be to be seen.
export const near = -0.01;

/// A point of the camera's frame in its view, in viewport points (the point is in front of it).
export function toView(pose, local) {
  const [fx, fy, cx, cy] = pose.intrinsics;
  return [fx * local[0] / -local[2] + cx, cy - fy * local[1] / -local[2]];
}

/// A point of the world in a pose's camera view, in viewport points, or null behind it.
export function toCamera(pose, point) {
  const local = inCamera(pose, point);
  return local[2] < near ? toView(pose, local) : null;
}

/// A segment of the world in a pose's camera view, cut where it passes behind the camera; or null.
export function segmentToCamera(pose, a, b) {
  let p = inCamera(pose, a), q = inCamera(pose, b);
  if (p[2] >= near && q[2] >= near) return null;
  const cut = (front, back) => { const t = (near - front[2]) / (back[2] - front[2]); return front.map((value, index) => value + t * (back[index] - value)); };
  if (p[2] >= near) p = cut(q, p); else if (q[2] >= near) q = cut(p, q);
  return [toView(pose, p), toView(pose, q)];
}

/// The corner of the camera's view at viewport point (u, v), `depth` metres in front of it, in the world.
export function viewCorner(pose, u, v, depth) {
  const [fx, fy, cx, cy] = pose.intrinsics;
  const r = rotate(pose.orientation, [(u - cx) / fx * depth, -(v - cy) / fy * depth, -depth]);
  return [r[0] + pose.position[0], r[1] + pose.position[1], r[2] + pose.position[2]];
}

/// Where a `viewport` ([w, h] points) picture sits, letterboxed, in a `width` × `height` box:
/// its scale and offsets.
export function letterbox(width, height, viewport) {
  const [vw, vh] = viewport, scale = Math.min(width / vw, height / vh);
  return { scale, ox: (width - vw * scale) / 2, oy: (height - vh * scale) / 2 };
}

/// A point (x, y) of a `width` × `height` box showing a letterboxed `viewport` as a tap in the
/// picture ([u, v], each 0…1 from the top left), or null outside the picture.
export function tapAt(x, y, width, height, viewport) {
  const { scale, ox, oy } = letterbox(width, height, viewport);
  const u = (x - ox) / (viewport[0] * scale), v = (y - oy) / (viewport[1] * scale);
  return u < 0 || u > 1 || v < 0 || v > 1 ? null : [u, v];
}

/// A point of the world on a `width` × `height` canvas looking at `target` from `distance` metres,
/// turned by `yaw` and `pitch` (radians); null behind the eye.
export function orbitToScreen(point, { target, yaw, pitch, distance, width, height }) {
  const p = minus(point, target);
  const cy = Math.cos(yaw), sy = Math.sin(yaw), cp = Math.cos(pitch), sp = Math.sin(pitch);
  const x = cy * p[0] - sy * p[2], z1 = sy * p[0] + cy * p[2];
  const y = cp * p[1] - sp * z1, z = sp * p[1] + cp * z1;
  const depth = distance - z;
  if (depth < 0.05) return null;
  const focal = Math.min(width, height) * 1.2;
  return [width / 2 + focal * x / depth, height / 2 - focal * y / depth];
}
