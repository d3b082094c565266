// The router: the location's hash names the page (#/signin, #/account, #/p/SLUG/TAB/…), shown
// again on every change. Pages are handed over by app.js, so no page module is imported here.

import { renderAccountBar } from "./account-bar.js";
import { api, projectPath } from "./api.js";
import { h } from "./dom.js";
import { leave, show } from "./page.js";
import { session } from "./session.js";

/// {signIn, signUp, account, projects, project: {TAB: (project, rest) => …}}.
let pages = null;

/// The parts of a location hash: "#/p/a%20b/specs" is ["p", "a b", "specs"].
const partsOf = (hash) => hash.replace(/^#\/?/, "").split("/").map(decodeURIComponent).filter((part) => part !== "");

/// Shows the page the location names, leaving the one shown.
export async function route() {
  leave();
  const parts = partsOf(location.hash);
  renderAccountBar(signOut);
  if (!session.token && parts[0] !== "signup") return pages.signIn();
  try {
    if (!session.me && session.token) session.me = await api("GET", "/api/v1/accounts/current");
    renderAccountBar(signOut);
    if (parts[0] === "signin") return pages.signIn();
    if (parts[0] === "signup") return pages.signUp();
    if (parts[0] === "account") return pages.account();
    if (parts[0] !== "p" || !parts[1]) return await pages.projects();
    const project = await api("GET", projectPath(parts[1]));
    const tab = parts[2] || "specs";
    const page = Object.hasOwn(pages.project, tab) ? pages.project[tab] : null;
    if (!page) return show("Not found", h("p", {}, "There is no such page."));
    await page(project, parts.slice(3));
  } catch (error) {
    show("Error", h("h1", {}, "Something went wrong"), h("p", { role: "alert" }, error.message), h("p", {}, h("a", { href: "#/" }, "Back to the projects")));
  }
  const heading = document.getElementById("main").querySelector("h1");
  if (heading) { heading.tabIndex = -1; }
}

/// Opens `hash`, or shows the page again when it is already open.
export function go(hash) {
  if (location.hash === hash) route(); else location.hash = hash;
}

async function signOut() {
  await api("DELETE", "/api/v1/sessions/current", { keepSession: true }).catch(() => undefined);
  session.end();
  location.hash = "#/signin";
  route();
}

/// Routes with `table` now and on every change of the location's hash.
export function startRouter(table) {
  pages = table;
  window.addEventListener("hashchange", route);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", route); else route();
}
