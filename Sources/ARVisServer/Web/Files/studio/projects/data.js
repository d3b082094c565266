// A project's data page: its live datasets (their latest rows, which charts follow) and the
// anchors devices placed (with their expiry), each deletable by editors.

import { api, attempt, projectPath } from "../core/api.js";
import { h } from "../core/dom.js";
import { projectNav, show } from "../core/page.js";
import { canEdit } from "../core/roles.js";
import { route } from "../core/router.js";
import { say } from "../core/toast.js";

/// The table of a dataset's rows, newest first, one column per value name any row has.
function rowsTable(latest) {
  const columns = [...new Set(latest.flatMap((row) => Object.keys(row.values)))];
  return h("table", { class: "table" },
    h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, "At"), columns.map((column) => h("th", {}, column)))),
    h("tbody", {}, latest.slice().reverse().map((row) => h("tr", {}, h("td", {}, String(row.seq)), h("td", {}, new Date(row.at).toLocaleString()),
      columns.map((column) => h("td", {}, row.values[column] === undefined ? "" : String(row.values[column])))))));
}

export async function dataPage(project) {
  const slug = project.slug, editable = canEdit(project);
  const [{ datasets }, { anchors }] = await Promise.all([api("GET", projectPath(slug, "datasets")), api("GET", projectPath(slug, "anchors"))]);
  const rows = h("section", { class: "card", id: "dataset-rows", hidden: true });

  async function showRows(dataset) {
    const { rows: latest } = await api("GET", projectPath(slug, "datasets", dataset, "rows") + "?last=50");
    rows.hidden = false;
    rows.replaceChildren(h("h2", {}, "The last " + latest.length + " rows of " + dataset), h("div", { class: "scroll" }, rowsTable(latest)));
  }

  const remove = async (path, what) => {
    if (!confirm("Delete " + what + "?")) return;
    if (await attempt(() => api("DELETE", path), "Not deleted")) { say(what + " deleted."); route(); }
  };

  show("Data", projectNav(project, "data"), h("h1", {}, "Data of " + project.name),
    h("section", { class: "card" }, h("h2", {}, "Datasets"),
      h("p", { class: "muted" }, "Rows devices and sensors append (POST …/datasets/NAME/rows); charts that name a dataset follow them live."),
      datasets.length ? h("ul", { class: "list" }, datasets.map((dataset) => h("li", {},
        h("button", { type: "button", class: "link", onclick: () => showRows(dataset.name) }, dataset.name), " · " + dataset.rows.toLocaleString() + " rows ",
        editable ? h("button", { type: "button", onclick: () => remove(projectPath(slug, "datasets", dataset.name), "dataset " + dataset.name) }, "Delete " + dataset.name) : null)))
        : h("p", { class: "muted" }, "No datasets yet.")),
    rows,
    h("section", { class: "card" }, h("h2", {}, "Anchors"),
      h("p", { class: "muted" }, "Poses devices shared so others find the same place; each expires."),
      anchors.length ? h("div", { class: "scroll" }, h("table", { class: "table" },
        h("thead", {}, h("tr", {}, h("th", {}, "Anchor"), h("th", {}, "Position (m)"), h("th", {}, "Session"), h("th", {}, "Expires"), h("th", {}, h("span", { class: "sr" }, "Actions")))),
        h("tbody", {}, anchors.map((anchor) => h("tr", {}, h("td", {}, h("code", {}, anchor.id.slice(0, 8))),
          h("td", {}, anchor.pose.position.map((value) => value.toFixed(2)).join(", ")), h("td", {}, anchor.session || "—"),
          h("td", {}, new Date(anchor.expiresAt).toLocaleDateString()),
          h("td", {}, editable ? h("button", { type: "button", onclick: () => remove(projectPath(slug, "anchors", anchor.id), "anchor " + anchor.id.slice(0, 8)) },
            "Delete anchor " + anchor.id.slice(0, 8)) : null))))))
        : h("p", { class: "muted" }, "No anchors.")));
}
