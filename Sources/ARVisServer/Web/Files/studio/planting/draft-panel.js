// The Draw panel of the planting page: a new area or an area being edited, drawn on the map
// vertex by vertex (clicks add, drags move), with holes and exclusion zones, then saved.

import { api, attempt, projectPath } from "../core/api.js";
import { field, h } from "../core/dom.js";
import { go } from "../core/router.js";
import { say } from "../core/toast.js";
import { areaBody, describeDraft, newDraft, vertexNear } from "./draft.js";

/// The panel, drawing into `state.draft` on `map`; `shapes` maps an area's id to its GeoJSON.
/// Returns {element, start(area or null), addVertex(lonLat), dragVertex(lonLat, drag) → taken,
/// endDrag(), describe()}.
export function draftPanel({ slug, map, state, areas, shapes, editable }) {
  const status = h("p", { class: "muted", role: "status", "aria-live": "polite", id: "draw-status" });
  const areaName = field("Area name", { maxlength: 200, name: "area-name" });

  const describe = () => {
    status.textContent = describeDraft(state.draft);
    map.canvas.classList.toggle("drawing", !!state.draft);
  };
  const redraw = () => { describe(); map.draw(); };

  function start(area) {
    state.draft = newDraft(area && shapes.get(area.id), area);
    areaName.input.value = area ? area.name : "Area " + (areas.length + 1);
    redraw(); map.canvas.focus();
  }

  function addVertex(point) {
    if (!state.draft || !state.draft.current) return;
    state.draft.current.push(point);
    redraw();
  }

  /// Moves the vertex the drag started on, if it started on one.
  function dragVertex(point, drag) {
    if (!state.draft) return false;
    if (!state.dragging) {
      const rect = map.canvas.getBoundingClientRect();
      state.dragging = vertexNear(state.draft, (lon, lat) => map.toScreen(lon, lat), drag.x - rect.left, drag.y - rect.top, 9);
    }
    if (!state.dragging) return false;
    state.dragging.ring[state.dragging.index] = point;
    map.draw();
    return true;
  }

  /// Starts a hole or an exclusion zone (a ring of `list`) once the current ring is complete.
  function newRing(list) {
    if (state.draft.current.length < 3) { say("Finish the current ring first (3 vertices or more).", "error"); return; }
    const ring = [];
    list.push(ring);
    state.draft.current = ring;
    describe(); map.canvas.focus();
  }

  async function save() {
    const draft = state.draft;
    const body = areaBody(draft, areaName.input.value.trim());
    if (!body) { say("An area needs 3 vertices or more.", "error"); return; }
    const created = await attempt(() => api("POST", projectPath(slug, "areas"), { body }), "Area not saved");
    if (!created) return;
    if (draft.replacing) await attempt(() => api("DELETE", projectPath(slug, "areas", draft.replacing.id)), "The old area was kept");
    say("Area saved: " + Math.round(created.squareMetres) + " m².");
    go("#/p/" + slug + "/planting/" + created.id);
  }

  const element = h("fieldset", { class: "card", disabled: !editable }, h("legend", {}, "Draw"),
    areaName.label,
    h("div", { class: "row" },
      h("button", { type: "button", id: "draw-area", onclick: () => start(null) }, "New area"),
      h("button", { type: "button", onclick: () => state.draft && newRing(state.draft.holes) }, "Add a hole"),
      h("button", { type: "button", onclick: () => state.draft && newRing(state.draft.exclusions) }, "Add an exclusion zone"),
      h("button", { type: "button", onclick: () => { if (state.draft && state.draft.current.length) { state.draft.current.pop(); redraw(); } } }, "Undo vertex"),
      h("button", { type: "button", class: "primary", id: "save-area", onclick: () => state.draft && save() }, "Save area"),
      h("button", { type: "button", onclick: () => { state.draft = null; redraw(); } }, "Cancel")),
    status);

  return { element, start, addVertex, dragVertex, endDrag: () => { state.dragging = null; }, describe };
}
