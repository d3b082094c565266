// What the planting map draws over its base: the project's areas, the plan's trees, the trees
// planted by others, and the area being drawn. Each layer is (g, map) => draw.

import { rings } from "./draft.js";
import { polygons } from "./geojson.js";
import { colourOf, speciesOf, treesOf } from "./plan-data.js";
import { frameToLonLat } from "./projection.js";

/// Fills (even-odd, so holes stay open) and strokes `polygon`, a list of rings of [lon, lat].
function drawPolygon(g, map, polygon, fill, stroke) {
  g.beginPath();
  for (const ring of polygon) ring.forEach((point, index) => { const [x, y] = map.toScreen(point[0], point[1]); if (index) g.lineTo(x, y); else g.moveTo(x, y); });
  g.closePath();
  if (fill) { g.fillStyle = fill; g.fill("evenodd"); }
  g.strokeStyle = stroke; g.lineWidth = 2; g.stroke();
}

/// The areas (the selected one stronger) and their exclusion zones; `shapes` maps an area's id to
/// its GeoJSON.
export const areasLayer = (areas, shapes, state) => (g, map) => {
  for (const area of areas) {
    const shape = shapes.get(area.id);
    if (!shape) continue;
    const chosen = area.id === state.selected;
    for (const polygon of polygons(shape.area)) drawPolygon(g, map, polygon, chosen ? "rgba(46,125,50,.18)" : "rgba(46,125,50,.07)", chosen ? "#2e7d32" : "#81a784");
    for (const zone of polygons(shape.exclusions)) drawPolygon(g, map, zone, "rgba(198,40,40,.18)", "#c62828");
  }
};

/// The shown plan's trees, coloured by species, sized by the spacing asked for.
export const planLayer = (state) => (g, map) => {
  if (!state.plan || !state.planGeoJSON) return;
  const radius = Math.max(1.5, Math.min(6, (state.planSpacing || 2) / 2 / map.metresPerPixel));
  for (const feature of treesOf(state.planGeoJSON)) {
    const [x, y] = map.toScreen(feature.geometry.coordinates[0], feature.geometry.coordinates[1]);
    if (x < -10 || y < -10 || x > map.width + 10 || y > map.height + 10) continue;
    g.fillStyle = colourOf(state.planSpecies, speciesOf(feature));
    g.beginPath(); g.arc(x, y, radius, 0, 2 * Math.PI); g.fill();
  }
};

/// Trees planted by others (positions in the project's `frame`; nothing without one).
export const plantedLayer = (frame, state) => (g, map) => {
  if (!frame) return;
  g.strokeStyle = "#000"; g.lineWidth = 1.5;
  for (const tree of state.trees.values()) {
    const [lon, lat] = frameToLonLat(frame, tree.position);
    const [x, y] = map.toScreen(lon, lat);
    g.fillStyle = "#ffd54f"; g.beginPath(); g.arc(x, y, 5, 0, 2 * Math.PI); g.fill(); g.stroke();
  }
};

/// The area being drawn: its rings (the current one dashed) and their vertices.
export const draftLayer = (state) => (g, map) => {
  const draft = state.draft;
  if (!draft) return;
  for (const ring of rings(draft)) {
    if (!ring.length) continue;
    const kind = ring === draft.outer ? "outer" : draft.holes.includes(ring) ? "hole" : "exclusion";
    g.setLineDash(ring === draft.current ? [6, 4] : []);
    drawPolygon(g, map, [ring], kind === "outer" ? "rgba(21,101,192,.15)" : kind === "hole" ? "rgba(255,255,255,.6)" : "rgba(198,40,40,.2)", kind === "exclusion" ? "#c62828" : "#1565c0");
    g.setLineDash([]);
    for (const point of ring) { const [x, y] = map.toScreen(point[0], point[1]); g.fillStyle = "#fff"; g.strokeStyle = "#1565c0"; g.beginPath(); g.arc(x, y, 5, 0, 2 * Math.PI); g.fill(); g.stroke(); }
  }
};
