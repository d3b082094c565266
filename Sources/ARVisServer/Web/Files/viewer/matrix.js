// 4×4 matrices (column-major Float32Arrays, as WebGL takes them) and 3-vectors. Pure.

export const identity = () => new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);

/// The product a·b (b applied first).
export function multiply(a, b) {
  const out = new Float32Array(16);
  for (let c = 0; c < 4; c++) for (let r = 0; r < 4; r++) {
    let sum = 0;
    for (let k = 0; k < 4; k++) sum += a[k * 4 + r] * b[c * 4 + k];
    out[c * 4 + r] = sum;
  }
  return out;
}

/// The matrix of translation `t`, rotation `q` (unit quaternion x, y, z, w) and scale `s`, applied
/// scale first (glTF's TRS).
export function fromTRS(t, q, s) {
  const [x, y, z, w] = q;
  return new Float32Array([
    (1 - 2 * (y * y + z * z)) * s[0], (2 * (x * y + z * w)) * s[0], (2 * (x * z - y * w)) * s[0], 0,
    (2 * (x * y - z * w)) * s[1], (1 - 2 * (x * x + z * z)) * s[1], (2 * (y * z + x * w)) * s[1], 0,
    (2 * (x * z + y * w)) * s[2], (2 * (y * z - x * w)) * s[2], (1 - 2 * (x * x + y * y)) * s[2], 0,
    t[0], t[1], t[2], 1]);
}

/// The unit quaternion [x, y, z, w] of the rotation in `m`'s upper 3 × 3 (orthonormal), w ≥ 0.
export function quaternionOf(m) {
  const [a, b, c, , d, e, f, , g, h, i] = m, trace = a + e + i;
  let q;
  if (trace > 0) { const s = 2 * Math.sqrt(1 + trace); q = [(f - h) / s, (g - c) / s, (b - d) / s, s / 4]; }
  else if (a > e && a > i) { const s = 2 * Math.sqrt(1 + a - e - i); q = [s / 4, (d + b) / s, (g + c) / s, (f - h) / s]; }
  else if (e > i) { const s = 2 * Math.sqrt(1 + e - a - i); q = [(d + b) / s, s / 4, (h + f) / s, (g - c) / s]; }
  else { const s = 2 * Math.sqrt(1 + i - a - e); q = [(g + c) / s, (h + f) / s, s / 4, (b - d) / s]; }
  const length = Math.hypot(...q) * (q[3] < 0 ? -1 : 1);
  return q.map((v) => v / length);
}

/// The point `p` transformed by `m`.
export function transformPoint(m, p) {
  return [m[0] * p[0] + m[4] * p[1] + m[8] * p[2] + m[12], m[1] * p[0] + m[5] * p[1] + m[9] * p[2] + m[13], m[2] * p[0] + m[6] * p[1] + m[10] * p[2] + m[14]];
}

/// The direction `d` turned by `m`'s upper 3 × 3 (no translation).
export function transformDirection(m, d) {
  return [m[0] * d[0] + m[4] * d[1] + m[8] * d[2], m[1] * d[0] + m[5] * d[1] + m[9] * d[2], m[2] * d[0] + m[6] * d[1] + m[10] * d[2]];
}

/// The inverse transpose of the upper 3×3 of `m`, as a mat3 (column-major): what turns normals.
export function normalMatrix(m) {
  const a = m[0], b = m[1], c = m[2], d = m[4], e = m[5], f = m[6], g = m[8], h = m[9], i = m[10];
  const A = e * i - f * h, B = -(d * i - f * g), C = d * h - e * g;
  const det = a * A + b * B + c * C || 1;
  return new Float32Array([A / det, B / det, C / det, -(b * i - c * h) / det, (a * i - c * g) / det, -(a * h - b * g) / det,
    (b * f - c * e) / det, -(a * f - c * d) / det, (a * e - b * d) / det]);
}

export const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
export const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
export const norm = (a) => { const l = Math.hypot(a[0], a[1], a[2]) || 1; return [a[0] / l, a[1] / l, a[2] / l]; };
export const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

/// The view matrix of an eye at `eye` looking at `target`, `up` up.
export function lookAt(eye, target, up) {
  const f = norm(sub(target, eye)), r = norm(cross(f, up)), u = cross(r, f);
  return new Float32Array([r[0], u[0], -f[0], 0, r[1], u[1], -f[1], 0, r[2], u[2], -f[2], 0, -dot(r, eye), -dot(u, eye), dot(f, eye), 1]);
}

/// The projection matrix of a vertical field of view `fovY` (radians), `aspect` (width / height)
/// and clipping planes `near` and `far`.
export function perspective(fovY, aspect, near, far) {
  const t = 1 / Math.tan(fovY / 2);
  return new Float32Array([t / aspect, 0, 0, 0, 0, t, 0, 0, 0, 0, (far + near) / (near - far), -1, 0, 0, 2 * far * near / (near - far), 0]);
}
