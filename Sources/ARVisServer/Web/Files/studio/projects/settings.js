// A project's settings page: its name, visibility (owners), where its frame sits on Earth, how many
// anchors a device session keeps (owners: Bubble Vision's cap), and the move to the trash (owners).

import { api, attempt, projectPath } from "../core/api.js";
import { field, h } from "../core/dom.js";
import { projectNav, show } from "../core/page.js";
import { say } from "../core/toast.js";

export async function settingsPage(project) {
  const owner = project.role === "owner";
  const name = field("Name", { value: project.name, required: true, maxlength: 200 });
  const visibility = h("select", { disabled: !owner }, ["private", "unlisted", "public"].map((value) => h("option", { value, selected: value === project.visibility }, value)));
  const place = project.location || {};
  const latitude = field("Latitude", { type: "number", step: "any", min: -90, max: 90, value: place.latitude ?? "" });
  const longitude = field("Longitude", { type: "number", step: "any", min: -180, max: 180, value: place.longitude ?? "" });
  const heading = field("Heading (° clockwise from north)", { type: "number", step: "any", min: 0, max: 359.999, value: place.heading ?? 0 });
  const cap = field("Anchors a device session keeps (its bubbles; the oldest go past it)", { type: "number", step: 1, min: 1, max: 1000, value: project.anchorsPerSession ?? 100, name: "anchorsPerSession", disabled: !owner });
  show("Settings", projectNav(project, "settings"), h("h1", {}, "Settings of " + project.name),
    h("form", { class: "card narrow", onsubmit: async (event) => {
      event.preventDefault();
      const change = { name: name.input.value.trim() };
      if (owner) change.visibility = visibility.value;
      if (owner && Number(cap.input.value) !== project.anchorsPerSession) change.anchorsPerSession = Number(cap.input.value);
      if (latitude.input.value !== "" && longitude.input.value !== "") {
        change.location = { latitude: Number(latitude.input.value), longitude: Number(longitude.input.value), heading: Number(heading.input.value || 0) };
      }
      if (await attempt(() => api("PATCH", projectPath(project.slug), { body: change }), "Not saved")) say("Saved.");
    } }, name.label, h("label", { class: "field" }, h("span", {}, "Visibility (owners)"), visibility),
      h("fieldset", {}, h("legend", {}, "Where the project's frame sits (planting, anchors)"), latitude.label, longitude.label, heading.label),
      cap.label,
      h("button", { type: "submit", class: "primary" }, "Save")),
    owner ? h("section", { class: "card narrow danger" }, h("h2", {}, "Trash"), h("p", {}, "A project in the trash can be restored from the project list for 30 days."),
      h("button", { type: "button", onclick: async () => {
        if (!confirm("Move " + project.name + " to the trash?")) return;
        if (await attempt(() => api("DELETE", projectPath(project.slug)), "Not moved")) { location.hash = "#/"; }
      } }, "Move project to the trash")) : null);
}
