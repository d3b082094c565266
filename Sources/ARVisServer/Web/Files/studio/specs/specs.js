// A project's specs page: its specs, a form to start a new one, and the editor of one
// (#/p/SLUG/specs/NAME).

import { api, projectPath } from "../core/api.js";
import { field, h } from "../core/dom.js";
import { projectNav, show } from "../core/page.js";
import { canEdit } from "../core/roles.js";
import { editorPage } from "./editor.js";

export async function specsPage(project, rest) {
  if (rest.length) return editorPage(project, rest[0]);
  const { specs } = await api("GET", projectPath(project.slug, "specs"));
  const name = field("Name (letters, digits, _ and -)", { required: true, pattern: "[A-Za-z0-9][A-Za-z0-9_\\-]*", maxlength: 100, name: "spec-name" });
  show("Specs", projectNav(project, "specs"), h("h1", {}, "Specs of " + project.name),
    h("ul", { class: "cards" }, specs.length ? specs.map((spec) => h("li", { class: "card" },
      h("a", { class: "title", href: "#/p/" + project.slug + "/specs/" + encodeURIComponent(spec.name) }, spec.name),
      h("p", { class: "muted" }, "version " + spec.version + " · " + new Date(spec.updatedAt).toLocaleString())))
      : h("li", { class: "muted" }, "No specs yet.")),
    canEdit(project) ? h("form", { class: "card row", onsubmit: (event) => {
      event.preventDefault();
      location.hash = "#/p/" + project.slug + "/specs/" + encodeURIComponent(name.input.value.trim());
    } }, h("h2", {}, "New spec"), name.label, h("button", { type: "submit", class: "primary" }, "Create and edit")) : null);
}
