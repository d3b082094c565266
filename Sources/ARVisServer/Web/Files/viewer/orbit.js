// The orbit camera: framed on the model's bounding box as the server's thumbnail is (azimuth 30°,
// elevation 20°, a 30° field of view, the bounding sphere filling the height), then turned,
// zoomed and panned. Pure.
//
// A camera is {azimuth, elevation (radians), distance, target: [x, y, z], radius (of the model)}.

/// The vertical field of view.
export const fieldOfView = 30 * Math.PI / 180;

/// Bounds that hold nothing yet.
export const emptyBounds = () => ({ low: [Infinity, Infinity, Infinity], high: [-Infinity, -Infinity, -Infinity] });

/// Grows `bounds` to hold `point`.
export function extendBounds(bounds, point) {
  for (let k = 0; k < 3; k++) { bounds.low[k] = Math.min(bounds.low[k], point[k]); bounds.high[k] = Math.max(bounds.high[k], point[k]); }
}

/// The first view of a model within `bounds` (a unit sphere at the origin for empty bounds).
export function framing(bounds) {
  const { low, high } = bounds, known = isFinite(low[0]);
  const target = known ? [(low[0] + high[0]) / 2, (low[1] + high[1]) / 2, (low[2] + high[2]) / 2] : [0, 0, 0];
  const radius = known ? Math.hypot(high[0] - low[0], high[1] - low[1], high[2] - low[2]) / 2 || 1 : 1;
  return { azimuth: 30 * Math.PI / 180, elevation: 20 * Math.PI / 180, distance: 1.05 * radius / Math.sin(fieldOfView / 2), target, radius };
}

/// Where the eye is.
export function eyeOf(camera) {
  const ce = Math.cos(camera.elevation);
  return [camera.target[0] + camera.distance * Math.sin(camera.azimuth) * ce, camera.target[1] + camera.distance * Math.sin(camera.elevation),
    camera.target[2] + camera.distance * Math.cos(camera.azimuth) * ce];
}

/// The near and far clipping planes: around the model, never nearer than a thousandth of the distance.
export const clipping = (camera) => [Math.max(camera.distance - camera.radius * 1.5, camera.distance / 1000), camera.distance + camera.radius * 1.5];

/// The azimuth and elevation after a drag of (dx, dy) pixels (the elevation short of the poles).
export const orbited = (camera, dx, dy) => ({ azimuth: camera.azimuth - dx * 0.01, elevation: Math.max(-1.55, Math.min(1.55, camera.elevation + dy * 0.01)) });

/// The distance after zooming by `factor` (from 5% to 50 times the model's radius).
export const zoomed = (camera, factor) => Math.max(camera.radius * 0.05, Math.min(camera.radius * 50, camera.distance * factor));

/// The target after a pan of (dx, dy) pixels on a canvas `height` pixels high: the model follows
/// the pointer.
export function panned(camera, dx, dy, height) {
  const scale = 2 * camera.distance * Math.tan(fieldOfView / 2) / Math.max(1, height);
  const a = camera.azimuth, e = camera.elevation;
  const right = [Math.cos(a), 0, -Math.sin(a)], up = [-Math.sin(a) * Math.sin(e), Math.cos(e), -Math.cos(a) * Math.sin(e)];
  return camera.target.map((value, k) => value + (-dx * right[k] + dy * up[k]) * scale);
}
