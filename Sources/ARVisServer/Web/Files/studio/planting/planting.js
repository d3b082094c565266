// A project's planting page: its areas on a map, drawing and editing areas with holes and
// exclusion zones, the species mix and spacing, plans drawn tree by tree (coloured by species,
// with count and density), trees planted by others appearing live, GeoJSON export.

import { api, attempt, projectPath } from "../core/api.js";
import { h } from "../core/dom.js";
import { onLeave, projectNav, show } from "../core/page.js";
import { canEdit } from "../core/roles.js";
import { route } from "../core/router.js";
import { joinRoom } from "../rooms/connection.js";
import { draftPanel } from "./draft-panel.js";
import { polygons } from "./geojson.js";
import { areasLayer, draftLayer, planLayer, plantedLayer } from "./layers.js";
import { MapView, tileTemplate } from "./map-view.js";
import { planPanel } from "./plan-panel.js";

/// Where the map opens without a project location (Lisbon).
const fallbackCenter = [-9.14, 38.72];

/// The base map chooser: the metric grid, or the configured tiles (remembered across visits).
function baseMapChooser(map) {
  const tiles = tileTemplate();
  const chooser = h("select", { "aria-label": "Base map", disabled: !tiles, onchange: (event) => {
    map.useTiles = event.target.value === "tiles";
    localStorage.setItem("arvis.tiles", event.target.value);
    map.draw();
  } }, h("option", { value: "grid" }, "Metric grid (offline)"), h("option", { value: "tiles" }, "OpenStreetMap"));
  if (tiles && localStorage.getItem("arvis.tiles") === "tiles") { chooser.value = "tiles"; map.useTiles = true; }
  return chooser;
}

/// The list of areas: select one (its plans, the map fitted to it), edit or delete it.
function areaList({ slug, areas, state, editable, select, edit }) {
  const list = h("ul", { class: "list" }, areas.map((area) => h("li", {},
    h("button", { type: "button", class: "link", "aria-pressed": String(area.id === state.selected), onclick: () => select(area) }, area.name),
    " · " + (area.squareMetres / 10000).toFixed(2) + " ha ",
    editable ? h("button", { type: "button", onclick: () => edit(area) }, "Edit " + area.name) : null,
    editable ? h("button", { type: "button", onclick: async () => {
      if (!confirm("Delete " + area.name + " and its plans?")) return;
      if (await attempt(() => api("DELETE", projectPath(slug, "areas", area.id)), "Not deleted")) route();
    } }, "Delete " + area.name) : null)));
  if (!areas.length) list.append(h("li", { class: "muted" }, "No areas yet: draw one."));
  return list;
}

/// The count of trees planted and the status of the room that reports them live.
function plantedTrees(slug, frame, state, map) {
  const status = h("span", { class: "muted", id: "trees-live" }, frame ? "" : "Set the project's location (Settings) to see planted trees on the map.");
  const count = h("span", { id: "tree-count" }, String(state.trees.size));
  const socket = joinRoom(slug, "planting", (message) => {
    if (message.type === "tree") state.trees.set(message.tree.id, message.tree);
    else if (message.type === "treeRemoved") state.trees.delete(message.id);
    else return;
    count.textContent = String(state.trees.size);
    map.redraw();
  }, (text) => { if (frame) status.textContent = text; });
  onLeave(() => socket.close());
  return h("p", { class: "muted" }, "Planted trees: ", count, " ", status);
}

/// Every planted tree of project `slug`, page after page.
async function allTrees(slug) {
  const trees = [];
  for (let after = null; ;) {
    const page = await api("GET", projectPath(slug, "trees") + "?limit=10000" + (after ? "&after=" + encodeURIComponent(after) : ""));
    trees.push(...page.trees);
    if (!page.next) return trees;
    after = page.next;
  }
}

export async function plantingPage(project, rest) {
  const slug = project.slug, editable = canEdit(project);
  const [{ areas }, { plans }, trees] = await Promise.all([api("GET", projectPath(slug, "areas")), api("GET", projectPath(slug, "plans")),
    allTrees(slug)]);
  const shapes = new Map(await Promise.all(areas.map(async (area) => [area.id, await api("GET", projectPath(slug, "areas", area.id, "geojson"))])));
  const state = { selected: areas.some((area) => area.id === rest[0]) ? rest[0] : areas.length ? areas[0].id : null, plan: null, planGeoJSON: null, draft: null,
    trees: new Map(trees.map((tree) => [tree.id, tree])) };
  const frame = project.location;
  const map = new MapView({ center: frame ? [frame.longitude, frame.latitude] : fallbackCenter, zoom: 17, onClick: (point) => drafting.addVertex(point),
    onDrag: (point, drag) => drafting.dragVertex(point, drag), onDragEnd: () => drafting.endDrag() });
  window.studioMap = map;
  map.layers.push(areasLayer(areas, shapes, state), planLayer(state), plantedLayer(frame, state), draftLayer(state));

  const drafting = draftPanel({ slug, map, state, areas, shapes, editable });
  const planning = planPanel({ slug, plans, state, map, editable });
  const fitArea = () => {
    const shape = state.selected && shapes.get(state.selected);
    if (shape) map.fit(polygons(shape.area).flat(2).length ? polygons(shape.area).flatMap((rings) => rings[0]) : []);
  };
  const select = (area) => { state.selected = area.id; fitArea(); planning.refresh(); map.draw(); };

  show("Planting", projectNav(project, "planting"), h("h1", {}, "Planting in " + project.name),
    h("div", { class: "planting" },
      h("div", { class: "map-wrap" }, map.canvas, h("div", { class: "map-tools" }, baseMapChooser(map),
        h("button", { type: "button", "aria-label": "Zoom in", onclick: () => map.zoomBy(1) }, "+"),
        h("button", { type: "button", "aria-label": "Zoom out", onclick: () => map.zoomBy(-1) }, "−"),
        h("button", { type: "button", onclick: fitArea }, "Fit area")),
        plantedTrees(slug, frame, state, map)),
      h("div", { class: "side" },
        h("section", { class: "card" }, h("h2", {}, "Areas"), areaList({ slug, areas, state, editable, select, edit: drafting.start })),
        drafting.element,
        planning.form,
        planning.results)));
  drafting.describe();
  planning.refresh();
  requestAnimationFrame(() => { if (state.selected) fitArea(); else map.draw(); });
}
