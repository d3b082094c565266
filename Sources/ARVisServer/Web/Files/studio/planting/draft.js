// An area being drawn: its outline, holes and exclusion zones as open rings of [lon, lat], the
// ring vertices go to, and the request that saves it. Pure.

import { closed, open, polygons } from "./geojson.js";

/// A new draft: empty, or the rings of `shape` ({area, exclusions} GeoJSON) to edit, replacing
/// `replacing` (the area) when saved.
export function newDraft(shape, replacing) {
  const outer = shape ? open((polygons(shape.area)[0] || [[]])[0]) : [];
  return {
    outer,
    holes: shape ? (polygons(shape.area)[0] || []).slice(1).map(open) : [],
    exclusions: shape ? polygons(shape.exclusions).map((rings) => open(rings[0])) : [],
    replacing: replacing || null,
    current: outer,
  };
}

/// What the draft status says of `draft` (null: not drawing).
export function describeDraft(draft) {
  if (!draft) return "Not drawing.";
  const what = draft.current === draft.outer ? "the outline" : draft.holes.includes(draft.current) ? "a hole" : "an exclusion zone";
  return "Drawing " + what + ": " + draft.current.length + " vertices. Click the map to add one, drag one to move it; finish with 3 or more.";
}

/// Every ring of the draft, the outline first.
export const rings = (draft) => [draft.outer, ...draft.holes, ...draft.exclusions];

/// The first vertex within `radius` pixels of canvas point (x, y), `toScreen(lon, lat)` placing
/// vertices on the canvas: {ring, index}, or null.
export function vertexNear(draft, toScreen, x, y, radius) {
  for (const ring of rings(draft)) {
    const index = ring.findIndex((vertex) => { const [vx, vy] = toScreen(vertex[0], vertex[1]); return Math.hypot(vx - x, vy - y) < radius; });
    if (index >= 0) return { ring, index };
  }
  return null;
}

/// The body of the request that creates the drawn area named `name` (blank: "Area"): its outline
/// and the holes of 3 vertices or more as a Polygon, such exclusion zones as a MultiPolygon; null
/// while the outline has fewer than 3 vertices.
export function areaBody(draft, name) {
  if (draft.outer.length < 3) return null;
  const body = { name: name || "Area", area: { type: "Polygon", coordinates: [draft.outer, ...draft.holes.filter((ring) => ring.length >= 3)].map(closed) } };
  const zones = draft.exclusions.filter((ring) => ring.length >= 3);
  if (zones.length) body.exclusions = { type: "MultiPolygon", coordinates: zones.map((ring) => [closed(ring)]) };
  return body;
}
