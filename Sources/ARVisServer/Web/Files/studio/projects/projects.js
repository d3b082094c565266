// The projects page: the projects the account can open, a form to create one, and the trash.

import { api, attempt, projectPath } from "../core/api.js";
import { field, h } from "../core/dom.js";
import { show } from "../core/page.js";
import { route } from "../core/router.js";

export async function projectsPage() {
  const { projects } = await api("GET", "/api/v1/projects");
  const live = projects.filter((project) => !project.trashedAt), trashed = projects.filter((project) => project.trashedAt);
  const name = field("Name", { required: true, maxlength: 200, name: "project-name" });
  const visibility = h("select", { name: "visibility" }, ["private", "unlisted", "public"].map((value) => h("option", { value }, value)));
  show("Projects", h("h1", {}, "Projects"),
    h("ul", { class: "cards" }, live.length ? live.map((project) => h("li", { class: "card" },
      h("a", { class: "title", href: "#/p/" + project.slug + "/specs" }, project.name),
      h("p", { class: "muted" }, project.visibility + " · " + (project.role || "visitor"))))
      : h("li", { class: "muted" }, "No projects yet: create one below.")),
    h("form", { class: "card row", onsubmit: async (event) => {
      event.preventDefault();
      const created = await attempt(() => api("POST", "/api/v1/projects", { body: { name: name.input.value.trim(), visibility: visibility.value } }), "Not created");
      if (created) location.hash = "#/p/" + created.slug + "/specs";
    } }, h("h2", {}, "New project"), name.label, h("label", { class: "field" }, h("span", {}, "Visibility"), visibility),
      h("button", { type: "submit", class: "primary" }, "Create project")),
    trashed.length ? h("section", {}, h("h2", {}, "Trash"), h("ul", { class: "list" }, trashed.map((project) => h("li", {},
      project.name + " ", h("button", { type: "button", onclick: async () => {
        if (await attempt(() => api("POST", projectPath(project.slug, "restore")), "Not restored")) route();
      } }, "Restore " + project.name))))) : null);
}
