// The Plan panels of the planting page: the species mix, spacing, layout and count of a plan of
// the selected area; the plan's summary and legend, its GeoJSON export; the area's plans.

import { api, attempt, projectPath } from "../core/api.js";
import { field, h } from "../core/dom.js";
import { say } from "../core/toast.js";
import { palette, planBody, planSpecies } from "./plan-data.js";

/// Rows of species names (suggested from the server's species list as they are typed) and shares.
function speciesMix() {
  const rows = h("div", { class: "species" });
  const names = h("datalist", { id: "species-names" });
  let timer = 0;
  const suggest = (text) => {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      const found = await api("GET", "/api/v1/species?q=" + encodeURIComponent(text)).catch(() => ({ species: [] }));
      names.replaceChildren(...found.species.slice(0, 20).map((species) => h("option", { value: species.latinName }, species.englishName + " · " + species.spacing + " m")));
    }, 150);
  };
  const add = (name, share) => {
    const nameField = h("input", { list: "species-names", value: name || "", "aria-label": "Species", class: "species-name", oninput: (event) => suggest(event.target.value) });
    const shareField = h("input", { type: "number", min: 0.01, step: "any", value: share || 1, "aria-label": "Share", class: "species-share" });
    const row = h("div", { class: "row" }, nameField, shareField, h("button", { type: "button", "aria-label": "Remove this species", onclick: () => row.remove() }, "×"));
    rows.append(row);
  };
  const values = () => [...rows.querySelectorAll(".row")].map((row) => ({ name: row.querySelector(".species-name").value, share: row.querySelector(".species-share").value }));
  return { rows, names, add, values };
}

/// Downloads `geojson` as plan-ID.geojson.
function download(geojson, id) {
  const blob = new Blob([JSON.stringify(geojson, null, 2)], { type: "application/geo+json" });
  const link = h("a", { href: URL.createObjectURL(blob), download: "plan-" + id + ".geojson" });
  document.body.append(link); link.click(); link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10000);
}

/// The panels, planning `state.selected` and showing the plan in `state` (which the map's plan
/// layer draws). Returns {form, results, refresh()}: refresh lists the selected area's plans.
export function planPanel({ slug, plans, state, map, editable }) {
  const mix = speciesMix();
  mix.add("", 1);
  const spacing = field("Spacing (m, blank: each species' own)", { type: "number", min: 0.1, step: "any", name: "spacing" });
  const layout = h("select", { "aria-label": "Layout" }, ["poisson", "hex", "reforestar"].map((value) => h("option", { value }, value)));
  const count = field("At most (trees, blank: as many as fit)", { type: "number", min: 1, step: 1, name: "count" });
  const summary = h("div", { id: "plan-summary", role: "status", "aria-live": "polite" });
  const list = h("ul", { class: "list" });

  async function generate() {
    if (!state.selected) { say("Choose or draw an area first.", "error"); return; }
    const body = planBody({ area: state.selected, layout: layout.value, species: mix.values(), spacing: spacing.input.value, count: count.input.value });
    summary.textContent = "Planning…";
    const plan = await attempt(() => api("POST", projectPath(slug, "plans"), { body }), "Not planned");
    if (!plan) { summary.textContent = ""; return; }
    plans.push(plan);
    await showPlan(plan);
    refresh();
  }

  async function showPlan(plan) {
    state.plan = plan;
    state.planGeoJSON = await api("GET", projectPath(slug, "plans", plan.id));
    state.planSpecies = planSpecies(state.planGeoJSON);
    state.planSpacing = Number(spacing.input.value) || 2;
    const totals = plan.summary;
    summary.replaceChildren(h("p", { id: "plan-count" }, totals.trees.toLocaleString() + " trees · " + totals.perHectare.toFixed(0) + " per hectare · "
      + (totals.squareMetres / 10000).toFixed(2) + " ha" + (totals.shortfall ? " · " + totals.shortfall + " short of the count asked" : "")),
      h("ul", { class: "legend" }, state.planSpecies.map((name, index) => h("li", {}, h("span", { class: "swatch", dataset: { colour: index % palette.length } }), (name || "unnamed") + ": "
        + (totals.perSpecies[index] !== undefined ? totals.perSpecies[index] : "")))),
      h("button", { type: "button", id: "export-plan", onclick: () => download(state.planGeoJSON, plan.id) }, "Export GeoJSON"));
    summary.querySelectorAll(".swatch").forEach((swatch) => { swatch.style.background = palette[Number(swatch.dataset.colour)]; });
    window.studioPlan = { trees: totals.trees, drawn: (state.planGeoJSON.features || []).length };
    map.draw();
  }

  function refresh() {
    const own = plans.filter((plan) => plan.area === state.selected);
    list.replaceChildren(...own.map((plan) => h("li", {}, h("button", { type: "button", class: "link", onclick: () => showPlan(plan) },
      new Date(plan.createdAt).toLocaleString()), " · " + plan.summary.trees + " trees")));
    if (!own.length) list.append(h("li", { class: "muted" }, "No plans for this area yet."));
  }

  const form = h("fieldset", { class: "card", disabled: !editable }, h("legend", {}, "Plan"),
    h("p", { class: "muted" }, "Species mix (name and share):"), mix.rows, mix.names,
    h("button", { type: "button", onclick: () => mix.add("", 1) }, "Add a species"),
    spacing.label, h("label", { class: "field" }, h("span", {}, "Layout"), layout), count.label,
    h("button", { type: "button", class: "primary", id: "generate-plan", onclick: generate }, "Generate plan"));
  const results = h("section", { class: "card" }, h("h2", {}, "Plan"), summary, h("h3", {}, "Plans of this area"), list);
  return { form, results, refresh };
}
