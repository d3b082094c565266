// The page the Studio shows: its title and content in #main, the project's tabs, and the work to
// do when it is left (sockets to close, timers to stop).

import { h } from "./dom.js";

const leaving = [];

/// Work to do when the page is left (close sockets, stop timers).
export const onLeave = (work) => { leaving.push(work); };

/// Does the work `onLeave` collected, once.
export function leave() {
  for (const work of leaving.splice(0)) { try { work(); } catch (error) { /* already gone */ } }
}

/// Shows `title` and `content` as the page.
export function show(title, ...content) {
  document.title = title + " — ARVis Studio";
  document.getElementById("main").replaceChildren(...content.flat());
}

/// A project's tabs, `current` marked as the page shown.
export function projectNav(project, current) {
  const tabs = [["specs", "Specs"], ["planting", "Planting"], ["gallery", "Gallery"], ["rooms", "Rooms"], ["data", "Data"], ["members", "Members"], ["settings", "Settings"]];
  return h("nav", { class: "tabs", "aria-label": "Project" },
    h("a", { href: "#/" }, "Projects"), h("span", { class: "crumb" }, project.name),
    tabs.map(([key, label]) => h("a", { href: "#/p/" + project.slug + "/" + key, "aria-current": key === current ? "page" : null }, label)));
}
