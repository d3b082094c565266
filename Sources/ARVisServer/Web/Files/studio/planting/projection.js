// Web Mercator at fractional zoom, as the planting map draws it: pixels of a 256-pixel world at
// zoom 0, a view's canvas pixels, its metric grid and map tiles; and a project's local frame on
// Earth. Pure: no DOM.
//
// A view is {center: [lon, lat], zoom, width, height}: the canvas's size in CSS pixels.

/// The Earth's radius in Web Mercator (WGS 84's equatorial radius), metres.
export const earthRadius = 6378137;

/// How far north and south the map goes: Web Mercator's limit, rounded in.
export const latitudeLimit = 85.05;

/// The zoom levels the map allows, and the most a fit zooms in to.
export const minZoom = 2, maxZoom = 22, maxFitZoom = 21;

/// World pixels at zoom 0 ([0, 256] on both axes, y down) of a longitude and latitude.
export function project(lon, lat) {
  const s = Math.sin(Math.max(-latitudeLimit, Math.min(latitudeLimit, lat)) * Math.PI / 180);
  return [(lon + 180) / 360 * 256, (0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * 256];
}

/// The longitude and latitude of world pixels at zoom 0.
export const unproject = (x, y) => [x / 256 * 360 - 180, Math.atan(Math.sinh(Math.PI * (1 - 2 * y / 256))) * 180 / Math.PI];

/// Canvas pixels of a longitude and latitude in `view`.
export function toScreen(view, lon, lat) {
  const scale = Math.pow(2, view.zoom);
  const [x, y] = project(lon, lat), [cx, cy] = project(view.center[0], view.center[1]);
  return [(x - cx) * scale + view.width / 2, (y - cy) * scale + view.height / 2];
}

/// The longitude and latitude at canvas pixels (x, y) of `view`.
export function toLonLat(view, x, y) {
  const scale = Math.pow(2, view.zoom);
  const [cx, cy] = project(view.center[0], view.center[1]);
  return unproject(cx + (x - view.width / 2) / scale, cy + (y - view.height / 2) / scale);
}

/// The centre of a view at `zoom` whose centre moves by (dx, dy) canvas pixels.
export function shift(center, zoom, dx, dy) {
  const scale = Math.pow(2, zoom);
  const [cx, cy] = project(center[0], center[1]);
  return unproject(cx + dx / scale, cy + dy / scale);
}

/// The centre and zoom after zooming by `delta` (clamped to the allowed levels), keeping the
/// point `around` ([lon, lat]) where it is on the canvas when given.
export function zoomBy(center, zoom, delta, around) {
  const next = Math.max(minZoom, Math.min(maxZoom, zoom + delta));
  if (!around) return { center, zoom: next };
  const [ax, ay] = project(around[0], around[1]), [cx, cy] = project(center[0], center[1]);
  const factor = Math.pow(2, zoom - next);
  return { center: unproject(ax + (cx - ax) * factor, ay + (cy - ay) * factor), zoom: next };
}

/// Metres per canvas pixel at the centre of a view.
export const metresPerPixel = (center, zoom) => 2 * Math.PI * earthRadius * Math.cos(center[1] * Math.PI / 180) / (256 * Math.pow(2, zoom));

/// The centre and zoom that show every one of `points` ([lon, lat]) with a margin on a `width` ×
/// `height` canvas; null for no points.
export function fit(points, width, height) {
  if (!points.length) return null;
  const xs = points.map((p) => project(p[0], p[1]));
  const minX = Math.min(...xs.map((p) => p[0])), maxX = Math.max(...xs.map((p) => p[0]));
  const minY = Math.min(...xs.map((p) => p[1])), maxY = Math.max(...xs.map((p) => p[1]));
  const zoom = Math.log2(Math.min(width / Math.max(maxX - minX, 1e-9), height / Math.max(maxY - minY, 1e-9)) * 0.8);
  return { center: unproject((minX + maxX) / 2, (minY + maxY) / 2), zoom: Math.max(minZoom, Math.min(maxFitZoom, zoom)) };
}

const gridSteps = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000];

/// The metric grid's spacing at `metresPerPixel`: the first round step at least 60 pixels apart
/// (the largest when none is), its length in pixels and its label.
export function gridStep(metresPerPixel) {
  let step = 1;
  for (const candidate of gridSteps) { step = candidate; if (candidate / metresPerPixel >= 60) break; }
  return { step, pixels: step / metresPerPixel, label: step >= 1000 ? step / 1000 + " km" : step + " m" };
}

/// The map tiles that cover `view`: the tile zoom (the view's, rounded, 0…19), each tile's column
/// (wrapped around the world) and row, and where it goes on the canvas (left, top, size).
export function tilesInView(view) {
  const z = Math.max(0, Math.min(19, Math.round(view.zoom))), count = Math.pow(2, z);
  const scale = Math.pow(2, view.zoom - z), size = 256 * scale;
  const [cx, cy] = project(view.center[0], view.center[1]).map((v) => v * count);
  const x0 = Math.floor((cx - view.width / 2 / scale) / 256), x1 = Math.floor((cx + view.width / 2 / scale) / 256);
  const y0 = Math.floor((cy - view.height / 2 / scale) / 256), y1 = Math.floor((cy + view.height / 2 / scale) / 256);
  const tiles = [];
  for (let x = x0; x <= x1; x++) for (let y = y0; y <= y1; y++) {
    if (y < 0 || y >= count) continue;
    tiles.push({ z, x: ((x % count) + count) % count, y, left: (x * 256 - cx) * scale + view.width / 2, top: (y * 256 - cy) * scale + view.height / 2, size });
  }
  return tiles;
}

/// A tile's URL from a template naming {z}, {x} and {y}.
export const tileURL = (template, tile) => template.replace("{z}", tile.z).replace("{x}", tile.x).replace("{y}", tile.y);

/// A position in a project's frame (metres: x to the right of its heading, z towards the viewer,
/// as devices place trees) as [lon, lat], the frame being {latitude, longitude, heading (degrees
/// clockwise from north)}.
export function frameToLonLat(frame, position) {
  const heading = (frame.heading || 0) * Math.PI / 180;
  const east = position.x * Math.cos(heading) - position.z * Math.sin(heading);
  const north = -position.x * Math.sin(heading) - position.z * Math.cos(heading);
  return [frame.longitude + east / (earthRadius * Math.cos(frame.latitude * Math.PI / 180)) * 180 / Math.PI, frame.latitude + north / earthRadius * 180 / Math.PI];
}
