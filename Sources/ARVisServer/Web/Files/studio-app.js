// ARVis Studio: the browser app served at / (this file is /studio/app.js). No library and nothing from outside the server: the
// API (openapi.yaml), the previews and the live streams. This file holds what every page shares —
// the API client, the session, elements, the router — and the account and project pages; the
// editor, planting, gallery and rooms pages are in studio-*.js and register themselves here.
"use strict";
window.Studio = (function () {
  const Studio = { pages: {} };

  // --- Elements ---------------------------------------------------------------------------------
  /// h("button", {type: "button", onclick: f}, "Save"): an element; text is always text, never HTML.
  function h(tag, attributes, ...children) {
    const element = document.createElement(tag);
    for (const [key, value] of Object.entries(attributes || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key.startsWith("on")) element.addEventListener(key.slice(2), value);
      else if (key === "class") element.className = value;
      else if (key === "dataset") Object.assign(element.dataset, value);
      else if (key === "value") element.value = value;
      else if (key in element && typeof value !== "string") element[key] = value;
      else element.setAttribute(key, value === true ? "" : String(value));
    }
    for (const child of children.flat(Infinity)) {
      if (child === null || child === undefined || child === false) continue;
      element.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return element;
  }
  Studio.h = h;

  /// A labelled input: <label>Text <input …></label>.
  Studio.field = (label, attributes) => {
    const input = h(attributes.tag || "input", Object.assign({}, attributes, { tag: null }));
    return { label: h("label", { class: "field" }, h("span", {}, label), input), input };
  };

  /// A canvas sized to its box at the screen's pixel ratio, and its 2D context drawing in CSS
  /// pixels; `null` while the canvas has no size (not laid out, or hidden).
  Studio.canvas2D = (canvas) => {
    const ratio = window.devicePixelRatio || 1;
    const width = canvas.clientWidth, height = canvas.clientHeight;
    if (!width || !height) return null;
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
    const g = canvas.getContext("2d");
    g.setTransform(ratio, 0, 0, ratio, 0, 0);
    return { g, width, height };
  };

  const toast = document.getElementById("toast");
  let toastTimer = 0;
  /// A short message at the bottom of the page (announced to screen readers).
  Studio.say = (text, kind) => {
    toast.textContent = text;
    toast.className = "show " + (kind || "");
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { toast.className = ""; }, kind === "error" ? 8000 : 3500);
  };

  // --- The API ----------------------------------------------------------------------------------
  const session = {
    get token() { return localStorage.getItem("arvis.token"); },
    set token(value) { if (value) localStorage.setItem("arvis.token", value); else localStorage.removeItem("arvis.token"); },
  };
  Studio.session = session;

  /// An error the API answered: its status, code and message (and diagnostics for a spec).
  class APIError extends Error {
    constructor(status, body) {
      const error = (body && body.error) || {};
      super(error.message || "the server answered " + status);
      this.status = status;
      this.code = error.code || "";
      this.details = error.details;
    }
  }
  Studio.APIError = APIError;

  /// Calls the API: `body` is sent as JSON unless it is a string or Blob (then `type` names it).
  async function api(method, path, options) {
    options = options || {};
    const headers = Object.assign({}, options.headers || {});
    if (session.token) headers.Authorization = "Bearer " + session.token;
    let body = options.body;
    if (body !== undefined && typeof body !== "string" && !(body instanceof Blob)) {
      body = JSON.stringify(body);
      headers["Content-Type"] = "application/json";
    } else if (options.type) headers["Content-Type"] = options.type;
    let response;
    try { response = await fetch(path, { method, headers, body, cache: "no-store" }); } catch (error) {
      throw new APIError(0, { error: { message: "the server cannot be reached: " + error.message } });
    }
    if (response.status === 401 && session.token && !options.keepSession) {
      session.token = null;
      Studio.me = null;
      location.hash = "#/signin";
    }
    if (options.raw) return response;
    const text = await response.text();
    let json = null;
    try { json = text ? JSON.parse(text) : null; } catch (error) { json = null; }
    if (!response.ok) throw new APIError(response.status, json);
    return options.withResponse ? { json, text, response } : json;
  }
  Studio.api = api;
  Studio.path = (...parts) => "/" + parts.map(encodeURIComponent).join("/");
  Studio.projectPath = (slug, ...rest) => Studio.path("api", "v1", "projects", slug, ...rest);
  /// A link a browser follows (images, frames) carrying the token, for private projects.
  Studio.withToken = (url) => session.token ? url + (url.includes("?") ? "&" : "?") + "access_token=" + encodeURIComponent(session.token) : url;

  /// Runs `work`, showing its error; returns its value (`true` for an answer with no body, such as
  /// a `204`), or undefined when it failed.
  Studio.attempt = async (work, what) => {
    try {
      const value = await work();
      return value === null || value === undefined ? true : value;
    } catch (error) {
      Studio.say((what ? what + ": " : "") + error.message, "error");
      return undefined;
    }
  };

  // --- Pages ------------------------------------------------------------------------------------
  const main = document.getElementById("main");
  let leaving = [];
  /// Work to do when the page is left (close sockets, stop timers).
  Studio.onLeave = (work) => leaving.push(work);

  /// Shows `title` and `content` as the page.
  Studio.show = (title, ...content) => {
    document.title = title + " — ARVis Studio";
    main.replaceChildren(...content.flat());
  };

  /// A project's tabs.
  Studio.projectNav = (project, current) => {
    const tabs = [["specs", "Specs"], ["planting", "Planting"], ["gallery", "Gallery"], ["rooms", "Rooms"], ["data", "Data"], ["members", "Members"], ["settings", "Settings"]];
    return h("nav", { class: "tabs", "aria-label": "Project" },
      h("a", { href: "#/" }, "Projects"), h("span", { class: "crumb" }, project.name),
      tabs.map(([key, label]) => h("a", { href: "#/p/" + project.slug + "/" + key, "aria-current": key === current ? "page" : null }, label)));
  };

  /// The project `slug`, or an error page.
  Studio.project = async (slug) => api("GET", Studio.projectPath(slug));
  Studio.canEdit = (project) => project.role === "owner" || project.role === "editor";

  async function route() {
    for (const work of leaving.splice(0)) { try { work(); } catch (error) { /* already gone */ } }
    const parts = location.hash.replace(/^#\/?/, "").split("/").map(decodeURIComponent).filter((part) => part !== "");
    renderAccount();
    if (!session.token && parts[0] !== "signup") return Studio.pages.signIn();
    try {
      if (!Studio.me && session.token) Studio.me = await api("GET", "/api/v1/accounts/current");
      renderAccount();
      if (parts[0] === "signin") return Studio.pages.signIn();
      if (parts[0] === "signup") return Studio.pages.signUp();
      if (parts[0] === "account") return Studio.pages.account();
      if (parts[0] !== "p" || !parts[1]) return await Studio.pages.projects();
      const project = await Studio.project(parts[1]);
      const page = Studio.pages[parts[2] || "specs"];
      if (!page) return Studio.show("Not found", h("p", {}, "There is no such page."));
      await page(project, parts.slice(3));
    } catch (error) {
      Studio.show("Error", h("h1", {}, "Something went wrong"), h("p", { role: "alert" }, error.message), h("p", {}, h("a", { href: "#/" }, "Back to the projects")));
    }
    const heading = main.querySelector("h1");
    if (heading) { heading.tabIndex = -1; }
  }
  Studio.route = route;
  /// Opens `hash`, or shows the page again when it is already open.
  Studio.go = (hash) => { if (location.hash === hash) route(); else location.hash = hash; };

  function renderAccount() {
    const nav = document.getElementById("account");
    if (!session.token || !Studio.me) { nav.replaceChildren(h("a", { href: "#/signin" }, "Sign in"), h("a", { href: "#/signup" }, "Sign up")); return; }
    nav.replaceChildren(h("a", { href: "#/account" }, Studio.me.username),
      h("button", { type: "button", class: "link", onclick: signOut }, "Sign out"));
  }

  async function signOut() {
    await api("DELETE", "/api/v1/sessions/current", { keepSession: true }).catch(() => undefined);
    session.token = null;
    Studio.me = null;
    location.hash = "#/signin";
    route();
  }

  // --- Accounts ---------------------------------------------------------------------------------
  function credentialsForm(title, action, submit) {
    const username = Studio.field("User name", { name: "username", autocomplete: "username", required: true, minlength: 3, maxlength: 40 });
    const password = Studio.field("Password", { name: "password", type: "password", required: true, minlength: 10, maxlength: 200,
      autocomplete: action === "signup" ? "new-password" : "current-password" });
    const error = h("p", { class: "error", role: "alert" });
    const form = h("form", { class: "card narrow", onsubmit: async (event) => {
      event.preventDefault();
      error.textContent = "";
      try { await submit(username.input.value.trim(), password.input.value); } catch (failure) { error.textContent = failure.message; }
    } }, h("h1", {}, title), username.label, password.label, error, h("button", { type: "submit", class: "primary" }, title));
    return form;
  }

  async function signIn(username, password) {
    const created = await api("POST", "/api/v1/sessions", { body: { username, password }, keepSession: true });
    session.token = created.token;
    Studio.me = null;
    location.hash = "#/";
    route();
  }

  Studio.pages.signIn = () => Studio.show("Sign in", credentialsForm("Sign in", "signin", signIn),
    h("p", { class: "center" }, "No account yet? ", h("a", { href: "#/signup" }, "Sign up")));

  Studio.pages.signUp = () => Studio.show("Sign up", credentialsForm("Sign up", "signup", async (username, password) => {
    await api("POST", "/api/v1/accounts", { body: { username, password }, keepSession: true });
    await signIn(username, password);
  }), h("p", { class: "center" }, "Already have an account? ", h("a", { href: "#/signin" }, "Sign in")));

  Studio.pages.account = () => {
    const current = Studio.field("Current password", { type: "password", autocomplete: "current-password", required: true });
    const next = Studio.field("New password (10 characters or more)", { type: "password", autocomplete: "new-password", required: true, minlength: 10 });
    const confirmation = Studio.field("Password, to confirm", { type: "password", autocomplete: "current-password", required: true });
    Studio.show("Account", h("h1", {}, Studio.me.username),
      h("form", { class: "card narrow", onsubmit: async (event) => {
        event.preventDefault();
        await Studio.attempt(async () => {
          await api("PUT", "/api/v1/accounts/current/password", { body: { currentPassword: current.input.value, newPassword: next.input.value } });
          Studio.say("Password changed; your other sessions are signed out.");
        }, "Not changed");
      } }, h("h2", {}, "Change password"), current.label, next.label, h("button", { type: "submit" }, "Change password")),
      h("form", { class: "card narrow danger", onsubmit: async (event) => {
        event.preventDefault();
        if (!confirm("Delete the account " + Studio.me.username + "? Projects only you own go to the trash.")) return;
        const deleted = await Studio.attempt(() => api("DELETE", "/api/v1/accounts/current", { body: { password: confirmation.input.value } }), "Not deleted");
        if (deleted === undefined) return;
        session.token = null;
        Studio.me = null;
        Studio.go("#/signin");
      } }, h("h2", {}, "Delete the account"), confirmation.label, h("button", { type: "submit" }, "Delete my account")));
  };

  // --- Projects ---------------------------------------------------------------------------------
  Studio.pages.projects = async () => {
    const { projects } = await api("GET", "/api/v1/projects");
    const live = projects.filter((project) => !project.trashedAt), trashed = projects.filter((project) => project.trashedAt);
    const name = Studio.field("Name", { required: true, maxlength: 200, name: "project-name" });
    const visibility = h("select", { name: "visibility" }, ["private", "unlisted", "public"].map((value) => h("option", { value }, value)));
    Studio.show("Projects", h("h1", {}, "Projects"),
      h("ul", { class: "cards" }, live.length ? live.map((project) => h("li", { class: "card" },
        h("a", { class: "title", href: "#/p/" + project.slug + "/specs" }, project.name),
        h("p", { class: "muted" }, project.visibility + " · " + (project.role || "visitor"))))
        : h("li", { class: "muted" }, "No projects yet: create one below.")),
      h("form", { class: "card row", onsubmit: async (event) => {
        event.preventDefault();
        const created = await Studio.attempt(() => api("POST", "/api/v1/projects", { body: { name: name.input.value.trim(), visibility: visibility.value } }), "Not created");
        if (created) location.hash = "#/p/" + created.slug + "/specs";
      } }, h("h2", {}, "New project"), name.label, h("label", { class: "field" }, h("span", {}, "Visibility"), visibility),
        h("button", { type: "submit", class: "primary" }, "Create project")),
      trashed.length ? h("section", {}, h("h2", {}, "Trash"), h("ul", { class: "list" }, trashed.map((project) => h("li", {},
        project.name + " ", h("button", { type: "button", onclick: async () => {
          if (await Studio.attempt(() => api("POST", Studio.projectPath(project.slug, "restore")), "Not restored")) route();
        } }, "Restore " + project.name))))) : null);
  };

  Studio.pages.members = async (project) => {
    const { members } = await api("GET", Studio.projectPath(project.slug, "members"));
    const owner = project.role === "owner";
    const roles = ["viewer", "editor", "owner"];
    const username = Studio.field("User name", { required: true, name: "member" });
    const role = h("select", { "aria-label": "Role" }, roles.map((value) => h("option", { value }, value)));
    const setRole = async (user, value) => {
      if (await Studio.attempt(() => api("PUT", Studio.projectPath(project.slug, "members", user), { body: { role: value } }), "Not changed")) route();
    };
    Studio.show("Members", Studio.projectNav(project, "members"), h("h1", {}, "Members of " + project.name),
      h("table", { class: "table" }, h("thead", {}, h("tr", {}, h("th", {}, "Member"), h("th", {}, "Role"), h("th", {}, h("span", { class: "sr" }, "Actions")))),
        h("tbody", {}, members.map((member) => h("tr", {}, h("td", {}, member.username),
          h("td", {}, owner ? h("select", { "aria-label": "Role of " + member.username, onchange: (event) => setRole(member.username, event.target.value) },
            roles.map((value) => h("option", { value, selected: value === member.role }, value))) : member.role),
          h("td", {}, (owner || member.username === (Studio.me || {}).username) ? h("button", { type: "button", onclick: async () => {
            if (await Studio.attempt(() => api("DELETE", Studio.projectPath(project.slug, "members", member.username)), "Not removed")) route();
          } }, member.username === (Studio.me || {}).username ? "Leave" : "Remove " + member.username) : null))))),
      owner ? h("form", { class: "card row", onsubmit: (event) => { event.preventDefault(); setRole(username.input.value.trim(), role.value); } },
        h("h2", {}, "Add a member"), username.label, h("label", { class: "field" }, h("span", {}, "Role"), role), h("button", { type: "submit" }, "Add")) : null);
  };

  Studio.pages.settings = async (project) => {
    const owner = project.role === "owner";
    const name = Studio.field("Name", { value: project.name, required: true, maxlength: 200 });
    const visibility = h("select", { disabled: !owner }, ["private", "unlisted", "public"].map((value) => h("option", { value, selected: value === project.visibility }, value)));
    const location = project.location || {};
    const latitude = Studio.field("Latitude", { type: "number", step: "any", min: -90, max: 90, value: location.latitude ?? "" });
    const longitude = Studio.field("Longitude", { type: "number", step: "any", min: -180, max: 180, value: location.longitude ?? "" });
    const heading = Studio.field("Heading (° clockwise from north)", { type: "number", step: "any", min: 0, max: 359.999, value: location.heading ?? 0 });
    Studio.show("Settings", Studio.projectNav(project, "settings"), h("h1", {}, "Settings of " + project.name),
      h("form", { class: "card narrow", onsubmit: async (event) => {
        event.preventDefault();
        const change = { name: name.input.value.trim() };
        if (owner) change.visibility = visibility.value;
        if (latitude.input.value !== "" && longitude.input.value !== "") {
          change.location = { latitude: Number(latitude.input.value), longitude: Number(longitude.input.value), heading: Number(heading.input.value || 0) };
        }
        if (await Studio.attempt(() => api("PATCH", Studio.projectPath(project.slug), { body: change }), "Not saved")) Studio.say("Saved.");
      } }, name.label, h("label", { class: "field" }, h("span", {}, "Visibility (owners)"), visibility),
        h("fieldset", {}, h("legend", {}, "Where the project's frame sits (planting, anchors)"), latitude.label, longitude.label, heading.label),
        h("button", { type: "submit", class: "primary" }, "Save")),
      owner ? h("section", { class: "card narrow danger" }, h("h2", {}, "Trash"), h("p", {}, "A project in the trash can be restored from the project list for 30 days."),
        h("button", { type: "button", onclick: async () => {
          if (!confirm("Move " + project.name + " to the trash?")) return;
          if (await Studio.attempt(() => api("DELETE", Studio.projectPath(project.slug)), "Not moved")) { window.location.hash = "#/"; }
        } }, "Move project to the trash")) : null);
  };

  window.addEventListener("hashchange", route);
  window.addEventListener("DOMContentLoaded", route);
  return Studio;
})();
