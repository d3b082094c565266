// A project's members page: who has which role; owners add, change and remove members, anyone
// leaves.

import { api, attempt, projectPath } from "../core/api.js";
import { field, h } from "../core/dom.js";
import { projectNav, show } from "../core/page.js";
import { route } from "../core/router.js";
import { session } from "../core/session.js";

export async function membersPage(project) {
  const { members } = await api("GET", projectPath(project.slug, "members"));
  const owner = project.role === "owner";
  const me = (session.me || {}).username;
  const roles = ["viewer", "editor", "owner"];
  const username = field("User name", { required: true, name: "member" });
  const role = h("select", { "aria-label": "Role" }, roles.map((value) => h("option", { value }, value)));
  const setRole = async (user, value) => {
    if (await attempt(() => api("PUT", projectPath(project.slug, "members", user), { body: { role: value } }), "Not changed")) route();
  };
  const remove = async (user) => {
    if (await attempt(() => api("DELETE", projectPath(project.slug, "members", user)), "Not removed")) route();
  };
  show("Members", projectNav(project, "members"), h("h1", {}, "Members of " + project.name),
    h("table", { class: "table" }, h("thead", {}, h("tr", {}, h("th", {}, "Member"), h("th", {}, "Role"), h("th", {}, h("span", { class: "sr" }, "Actions")))),
      h("tbody", {}, members.map((member) => h("tr", {}, h("td", {}, member.username),
        h("td", {}, owner ? h("select", { "aria-label": "Role of " + member.username, onchange: (event) => setRole(member.username, event.target.value) },
          roles.map((value) => h("option", { value, selected: value === member.role }, value))) : member.role),
        h("td", {}, (owner || member.username === me) ? h("button", { type: "button", onclick: () => remove(member.username) },
          member.username === me ? "Leave" : "Remove " + member.username) : null))))),
    owner ? h("form", { class: "card row", onsubmit: (event) => { event.preventDefault(); setRole(username.input.value.trim(), role.value); } },
      h("h2", {}, "Add a member"), username.label, h("label", { class: "field" }, h("span", {}, "Role"), role), h("button", { type: "submit" }, "Add")) : null);
}
