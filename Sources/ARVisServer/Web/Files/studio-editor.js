// ARVis Studio's spec pages: the project's specs, and the editor with its diagnostics as you type,
// did-you-mean fixes, completion, save with conflict handling, versions (diff, restore), and the
// live preview: every widget (the server's HTML renders), the scene in the orbit viewer, the QR
// code and the phone link.
"use strict";
(function (Studio) {
  const h = Studio.h, api = Studio.api;
  /// How long after the last key the spec is checked, and how much longer before it is drawn again.
  const debounce = 120, drawPause = 400;

  const starter = JSON.stringify({
    imageTrackingConfigurations: [{
      imageURL: "https://example.org/targets/poster.jpg",
      physicalWidth: 0.3,
      relationships: [{ widgetConfiguration: { component: { text: { content: "**Hello from ARVis**" } }, relativeAnchorPoint: "top", relativePosition: [0, 0, 0] } }],
    }],
  }, null, 2) + "\n";

  Studio.pages.specs = async (project, rest) => {
    if (rest.length) return editor(project, rest[0]);
    const { specs } = await api("GET", Studio.projectPath(project.slug, "specs"));
    const name = Studio.field("Name (letters, digits, _ and -)", { required: true, pattern: "[A-Za-z0-9][A-Za-z0-9_\\-]*", maxlength: 100, name: "spec-name" });
    Studio.show("Specs", Studio.projectNav(project, "specs"), h("h1", {}, "Specs of " + project.name),
      h("ul", { class: "cards" }, specs.length ? specs.map((spec) => h("li", { class: "card" },
        h("a", { class: "title", href: "#/p/" + project.slug + "/specs/" + encodeURIComponent(spec.name) }, spec.name),
        h("p", { class: "muted" }, "version " + spec.version + " · " + new Date(spec.updatedAt).toLocaleString())))
        : h("li", { class: "muted" }, "No specs yet.")),
      Studio.canEdit(project) ? h("form", { class: "card row", onsubmit: (event) => {
        event.preventDefault();
        location.hash = "#/p/" + project.slug + "/specs/" + encodeURIComponent(name.input.value.trim());
      } }, h("h2", {}, "New spec"), name.label, h("button", { type: "submit", class: "primary" }, "Create and edit")) : null);
  };

  async function editor(project, name) {
    const path = Studio.projectPath(project.slug, "specs", name);
    const state = { etag: null, version: 0, saved: "", text: starter, checking: 0, lastChecked: null, drawn: null, shown: {}, allWidgets: false };
    /// A stored version as the editor reads it from a spec response.
    const readVersion = async (response) => {
      if (!response.ok) throw new Studio.APIError(response.status, await response.json().catch(() => null));
      return { text: await response.text(), etag: response.headers.get("ETag"), version: Number(response.headers.get("ARVis-Version")) || 0 };
    };
    /// Makes `stored` the version the editor's text is compared and saved against.
    const adopt = (stored) => { state.etag = stored.etag; state.version = stored.version; state.saved = stored.text; };
    /// The spec as stored now, or null when it does not exist (asked of the list, not answered with a 404).
    const latest = async () => {
      const { specs } = await api("GET", Studio.projectPath(project.slug, "specs"));
      if (!specs.some((spec) => spec.name === name)) return null;
      return readVersion(await api("GET", path, { raw: true }));
    };
    /// The spec as stored, if someone saved (or deleted) it since the editor's version; else undefined.
    const changedSince = async () => {
      if (!state.etag) return await latest() || undefined;
      const response = await api("GET", path, { raw: true, headers: { "If-None-Match": state.etag } });
      if (response.status === 304) return undefined;
      if (response.status === 404) return null;
      return readVersion(response);
    };
    const stored = await latest();
    if (stored) {
      adopt(stored);
      state.text = stored.text;
    }
    const yaml = () => !/^\s*[{[]/.test(code.text);

    const status = h("p", { id: "save-status", class: "muted", role: "status", "aria-live": "polite" });
    const problems = h("ol", { id: "diagnostics", class: "diagnostics", "aria-label": "Problems" });
    const summary = h("p", { id: "diagnostics-summary", class: "muted", role: "status", "aria-live": "polite" }, "Checking…");
    const code = new Studio.CodeEditor({ text: state.text, yaml: !/^\s*[{[]/.test(state.text), label: "Spec " + name + " (JSON or YAML)",
      describedBy: "diagnostics-summary", onChange: () => { schedule(); showDirty(); } });
    const widgets = h("div", { class: "widgets", id: "preview-widgets" });
    const scene = h("div", { class: "scene", id: "preview-scene" });
    const phone = h("div", { class: "phone", id: "preview-phone" });
    const versions = h("div", { class: "versions", id: "versions" });
    const conflict = h("section", { class: "conflict card", id: "conflict", hidden: true, "aria-live": "assertive" });
    const saveButton = h("button", { type: "button", class: "primary", id: "save", onclick: () => save(), disabled: !Studio.canEdit(project) }, "Save");
    const deleteButton = Studio.canEdit(project) ? h("button", { type: "button", onclick: async () => {
      if (!state.version) { Studio.go("#/p/" + project.slug + "/specs"); return; }
      if (!confirm("Delete the spec " + name + " and all its versions?")) return;
      if (await Studio.attempt(() => api("DELETE", path), "Not deleted") !== undefined) { Studio.say(name + " deleted."); Studio.go("#/p/" + project.slug + "/specs"); }
    } }, "Delete spec") : null;

    const showDirty = () => {
      const dirty = code.text !== state.saved;
      status.textContent = (state.version ? "Version " + state.version : "Not saved yet") + (dirty ? " · unsaved changes" : " · saved");
      saveButton.textContent = dirty ? "Save" : "Saved";
    };

    // --- Checking as you type ---
    let timer = 0;
    const schedule = () => { clearTimeout(timer); timer = setTimeout(check, debounce); };
    /// Diagnostics first (a quick read), then — when there are no errors — the drawings.
    async function check() {
      const text = code.text;
      if (text === state.lastChecked) return;
      const ticket = ++state.checking;
      code.setYAML(yaml());
      const ask = (draw) => api("POST", "/api/v1/preview?draw=" + draw + "&name=" + encodeURIComponent(name), { body: text, type: yaml() ? "application/yaml" : "application/json" });
      try {
        const read = await ask(false);
        if (ticket !== state.checking) return;
        state.lastChecked = text;
        showDiagnostics(read.diagnostics);
        if (read.diagnostics.some((item) => item.severity === "error")) return;
        // Drawing waits for a longer pause: typing is never held up by frames loading.
        if (state.drawn) await new Promise((resolve) => setTimeout(resolve, drawPause));
        if (ticket !== state.checking) return;
        const drawn = await ask(true);
        if (ticket === state.checking && drawn.preview) showPreview(drawn);
      } catch (error) { summary.textContent = "Not checked: " + error.message; }
    }

    function showDiagnostics(diagnostics) {
      code.mark(diagnostics);
      const errors = diagnostics.filter((item) => item.severity === "error").length;
      summary.textContent = errors ? errors + " error" + (errors === 1 ? "" : "s") + ", " + (diagnostics.length - errors) + " warning" + (diagnostics.length - errors === 1 ? "" : "s")
        : diagnostics.length ? "No errors; " + diagnostics.length + " warning" + (diagnostics.length === 1 ? "" : "s") : "No problems.";
      summary.className = errors ? "error" : "ok";
      problems.replaceChildren(...diagnostics.slice(0, 200).map((item) => {
        const fix = Studio.CodeEditor.fixOf(item);
        return h("li", { class: item.severity, dataset: { line: item.line, column: item.column } },
          h("button", { type: "button", class: "link place", onclick: () => code.reveal(item.line, item.column),
            "aria-label": "Go to line " + item.line + ", column " + item.column }, item.line + ":" + item.column),
          h("span", { class: "severity" }, item.severity), " ", h("span", { class: "message" }, item.message),
          item.path ? h("code", { class: "path" }, item.path) : null,
          item.hint ? h("span", { class: "hint" }, item.hint) : null,
          fix ? h("button", { type: "button", class: "fix", onclick: () => { if (code.applyFix(item)) Studio.say("Replaced with '" + fix + "'."); } }, "Fix: use '" + fix + "'") : null);
      }));
    }

    /// Keeps the newest drawings; the open tab shows them now, a hidden one when it is opened (a
    /// spec of hundreds of widgets would otherwise load hundreds of frames on every edit).
    function showPreview(result) {
      if (state.drawn && state.drawn.preview.id === result.preview.id) return;
      state.drawn = result;
      state.shown = {};
      showOpenTab();
    }

    function showOpenTab() {
      const open = tabs.find((item) => !item.panel.hidden);
      if (!state.drawn || !open || state.shown[open.id] === state.drawn.preview.id) return;
      state.shown[open.id] = state.drawn.preview.id;
      if (open.id === "widgets") showWidgets(state.drawn);
      if (open.id === "scene") showScene(state.drawn);
    }

    function showWidgets(result) {
      const preview = result.preview, limit = state.allWidgets ? Infinity : 12;
      const frames = preview.widgets.slice(0, limit).map((widget, index) => {
        const frame = h("iframe", { src: widget.html, title: "Widget " + (index + 1) + ": " + widget.name, sandbox: "allow-scripts", loading: "lazy", class: "widget" });
        const width = Math.max(120, widget.width || 320), height = Math.max(60, widget.height || 200);
        frame.style.aspectRatio = width + " / " + height;
        frame.style.maxWidth = width + "px";
        return h("figure", {}, frame, h("figcaption", {}, widget.name, " · ", h("a", { href: widget.svg, target: "_blank", rel: "noopener" }, "SVG")));
      });
      const more = preview.widgets.length > frames.length ? h("button", { type: "button", onclick: () => {
        state.allWidgets = true; state.shown.widgets = null; showOpenTab();
      } }, "Show all " + preview.widgets.length + " widgets") : null;
      widgets.replaceChildren(...(preview.problem ? [h("p", { class: "error" }, preview.problem)] : []), ...frames, ...(more ? [more] : []));
      if (!preview.widgets.length && !preview.problem) widgets.replaceChildren(h("p", { class: "muted" }, "This spec has no widgets."));
    }

    function showScene(result) {
      scene.replaceChildren(result.preview.scene ? h("iframe", { src: result.preview.scene, title: "3D scene: targets, widgets and placements", class: "scene-view" })
        : h("p", { class: "muted" }, "A " + result.kind + " has no scene: the scene is drawn for environments."));
    }

    function showPhone() {
      if (!state.version) { phone.replaceChildren(h("p", { class: "muted" }, "Save the spec to open it on a phone.")); return; }
      const page = location.origin + "/s/" + encodeURIComponent(project.slug) + "/" + encodeURIComponent(name);
      if (project.visibility === "private") {
        phone.replaceChildren(h("p", {}, "Phones open the specs of unlisted and public projects without an account; this project is private. ",
          Studio.canEdit(project) ? h("a", { href: "#/p/" + project.slug + "/settings" }, "Change its visibility") : null));
        return;
      }
      phone.replaceChildren(h("img", { src: "/s/" + encodeURIComponent(project.slug) + "/" + encodeURIComponent(name) + "/qr.svg?v=" + state.version,
        alt: "QR code opening " + name + " in iARVis", class: "qr", width: 200, height: 200 }),
        h("p", {}, h("a", { href: page, target: "_blank", rel: "noopener", id: "phone-link" }, page)),
        h("p", { class: "muted" }, "The phone page follows every save live."));
    }

    // --- Saving ---
    /// Saves the editor's text over the version it was loaded from (`over`: an ETag the author chose
    /// to replace). Someone else's newer version is found before writing, so the answer is a
    /// conflict to resolve rather than a `412`; a `412` from a save racing another is handled alike.
    async function save(over) {
      const text = code.text;
      const started = Date.now();
      if (state.lastChecked === text && problems.querySelector("li.error")) {
        Studio.say("Not saved: fix the errors first (they are listed under the editor).", "error");
        return;
      }
      saveButton.disabled = true;
      try {
        const current = over ? undefined : await changedSince();
        if (current !== undefined) { await showConflict(text, current); return; }
        const headers = over ? { "If-Match": over } : state.etag ? { "If-Match": state.etag } : { "If-None-Match": "*" };
        const saved = await api("PUT", path, { body: text, type: yaml() ? "application/yaml" : "application/json", headers });
        adopt({ etag: saved.etag, version: saved.version, text });
        conflict.hidden = true;
        window.studioSaved = { version: saved.version, started, at: Date.now() };
        Studio.say("Saved version " + saved.version + ".");
        showPhone();
        loadVersions();
      } catch (error) {
        if (error.status === 412) await showConflict(text, await latest());
        else if (error.status === 422 && Array.isArray(error.details)) { showDiagnostics(error.details); Studio.say("Not saved: " + error.message, "error"); }
        else Studio.say("Not saved: " + error.message, "error");
      } finally {
        saveButton.disabled = !Studio.canEdit(project);
        showDirty();
      }
    }

    /// Someone saved since this text was loaded: both are shown, nothing is lost.
    async function showConflict(mine, theirs) {
      if (!theirs) {
        Studio.say("The spec was deleted meanwhile; saving again creates it with your text.", "error");
        adopt({ etag: null, version: 0, text: state.saved });
        return;
      }
      const theirText = theirs.text, theirTag = theirs.etag, theirVersion = theirs.version;
      conflict.replaceChildren(
        h("h2", {}, "Someone else saved version " + theirVersion + " while you were editing"),
        h("p", {}, "Nothing was saved and nothing is lost: your text is below theirs. Keep yours (it becomes the next version), or take theirs (yours stays here to copy from)."),
        h("div", { class: "both" },
          h("label", { class: "field" }, h("span", {}, "Theirs (version " + theirVersion + ")"), h("textarea", { readOnly: true, class: "mono", rows: 12, value: theirText, id: "conflict-theirs" })),
          h("label", { class: "field" }, h("span", {}, "Yours"), h("textarea", { readOnly: true, class: "mono", rows: 12, value: mine, id: "conflict-mine" }))),
        Studio.diffView(theirText, mine, "theirs → yours"),
        h("div", { class: "row" },
          h("button", { type: "button", class: "primary", onclick: () => save(theirTag) }, "Keep mine"),
          h("button", { type: "button", onclick: () => {
            adopt(theirs);
            code.set(theirText); schedule(); showDirty();
            Studio.say("Theirs is in the editor; yours stays in this panel.");
          } }, "Take theirs"),
          h("button", { type: "button", onclick: () => { conflict.hidden = true; } }, "Close")));
      conflict.hidden = false;
      conflict.querySelector("h2").tabIndex = -1;
      conflict.querySelector("h2").focus();
    }

    // --- Versions ---
    async function loadVersions() {
      if (!state.version) { versions.replaceChildren(h("p", { class: "muted" }, "No versions yet.")); return; }
      const list = await Studio.attempt(() => api("GET", path + "/versions"), "Versions");
      if (!list) return;
      versions.replaceChildren(h("ol", { reversed: true, class: "list" }, list.versions.slice().reverse().map((version) => h("li", {},
        h("button", { type: "button", class: "link", onclick: () => compare(version.version) }, "Version " + version.version),
        " · " + (version.author || "—") + " · " + new Date(version.createdAt).toLocaleString()))), h("div", { id: "version-diff" }));
    }

    async function compare(number) {
      const response = await api("GET", path + "/versions/" + number, { raw: true });
      const text = await response.text();
      const target = versions.querySelector("#version-diff");
      target.replaceChildren(h("h3", {}, "Version " + number + " → the editor"), Studio.diffView(text, code.text, "version " + number + " → editor"),
        Studio.canEdit(project) ? h("button", { type: "button", onclick: async () => {
          const restored = await Studio.attempt(() => api("POST", path + "/versions/" + number + "/restore"), "Not restored");
          if (!restored) return;
          adopt({ etag: restored.etag, version: restored.version, text });
          code.set(text); schedule(); showDirty(); showPhone(); loadVersions();
          Studio.say("Version " + number + " restored as version " + restored.version + ".");
        } }, "Restore version " + number) : null);
    }

    // --- Layout ---
    const tab = (id, label, panel) => ({ id, label, panel });
    const tabs = [tab("widgets", "Widgets", widgets), tab("scene", "Scene", scene), tab("phone", "Phone", phone), tab("versions", "Versions", versions)];
    const tabList = h("div", { role: "tablist", class: "tabs small", "aria-label": "Preview" });
    const select = (chosen) => {
      tabs.forEach((item) => {
        item.button.setAttribute("aria-selected", String(item === chosen));
        item.button.tabIndex = item === chosen ? 0 : -1;
        item.panel.hidden = item !== chosen;
      });
      showOpenTab();
    };
    tabs.forEach((item, index) => {
      item.button = h("button", { type: "button", role: "tab", id: "tab-" + item.id, "aria-controls": "preview-" + item.id, onclick: () => select(item),
        onkeydown: (event) => {
          if (event.key !== "ArrowRight" && event.key !== "ArrowLeft") return;
          const next = tabs[(index + (event.key === "ArrowRight" ? 1 : tabs.length - 1)) % tabs.length];
          select(next); next.button.focus();
        } }, item.label);
      item.panel.setAttribute("role", "tabpanel");
      item.panel.setAttribute("aria-labelledby", "tab-" + item.id);
      item.panel.id = item.panel.id || "preview-" + item.id;
      tabList.append(item.button);
    });
    select(tabs[0]);

    document.addEventListener("keydown", saveShortcut);
    Studio.onLeave(() => { document.removeEventListener("keydown", saveShortcut); clearTimeout(timer); });
    function saveShortcut(event) {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "s") { event.preventDefault(); if (Studio.canEdit(project)) save(); }
    }

    Studio.show(name, Studio.projectNav(project, "specs"),
      h("div", { class: "editor-head" }, h("h1", {}, name), status, saveButton, deleteButton,
        h("span", { class: "muted keys" }, "Ctrl+S saves · Ctrl+Space completes · Esc then Tab leaves the editor")),
      conflict,
      h("div", { class: "workbench" },
        h("section", { class: "edit", "aria-label": "Editor" }, code.element, h("div", { class: "problems" }, summary, problems)),
        h("section", { class: "preview", "aria-label": "Preview" }, tabList, ...tabs.map((item) => item.panel))));
    showDirty();
    showPhone();
    loadVersions();
    check();
  }
})(window.Studio);
