// A bubble as the project's anchors hold it (ARVisSpatial's Bubble; docs/webxr.md, "Bubbles"): a
// pane, `{"kind": "pane", "width", "height"?, "thicknessOffset"?, "phase"?}`, or a trail,
// `{"kind": "trail", "up", "points", "thicknessOffset"?, "clientId"?}`, whose points are
// millimetres from the anchor's position, each the difference from the one before. Read by the
// phone that draws them and by the Studio's room view.

/// Whether an anchor holds a pane, and whether it holds a trail.
export const isPane = (anchor) => !!anchor && !!anchor.payload && anchor.payload.kind === "pane" && Number.isFinite(anchor.payload.width);
export const isTrail = (anchor) => !!anchor && !!anchor.payload && anchor.payload.kind === "trail" && Array.isArray(anchor.payload.points) && Array.isArray(anchor.payload.up);

/// A pane's height (m): its own, else two thirds of its width (the seed's 0.6 × 0.4 m).
export const paneHeight = (payload) => (Number.isFinite(payload.height) ? payload.height : payload.width * 2 / 3);

/// A trail's points as stored: millimetres from `origin` (the anchor's position), each the
/// difference from the one before (a 1 024-slice trail fits the anchor's 16 KB payload), and back.
export function encodePoints(origin, points) {
  const flat = [];
  let last = [0, 0, 0];
  for (const point of points) {
    const at = [0, 1, 2].map((c) => Math.round((point[c] - origin[c]) * 1000));
    flat.push(at[0] - last[0], at[1] - last[1], at[2] - last[2]);
    last = at;
  }
  return flat;
}
export function decodePoints(origin, flat) {
  const points = [], at = [0, 0, 0];
  for (let k = 0; k + 2 < flat.length; k += 3) {
    for (let c = 0; c < 3; c++) at[c] += flat[k + c];
    points.push([origin[0] + at[0] / 1000, origin[1] + at[1] / 1000, origin[2] + at[2] / 1000]);
  }
  return points;
}
