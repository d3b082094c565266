// The preview's versions panel: the spec's versions, each compared with the editor's text and
// restorable (as a new version) by editors.

import { diffView } from "../code/diff-view.js";
import { attempt } from "../core/api.js";
import { h } from "../core/dom.js";
import { say } from "../core/toast.js";

/// {element, load()} for the versions of `spec` (a SpecDocument) against the text of `code`;
/// `onRestored(text)` after a version is restored (and adopted).
export function versionsPanel({ spec, code, editable, onRestored }) {
  const element = h("div", { class: "versions", id: "versions" });

  async function load() {
    if (!spec.version) { element.replaceChildren(h("p", { class: "muted" }, "No versions yet.")); return; }
    const versions = await attempt(() => spec.versions(), "Versions");
    if (!versions) return;
    element.replaceChildren(h("ol", { reversed: true, class: "list" }, versions.slice().reverse().map((version) => h("li", {},
      h("button", { type: "button", class: "link", onclick: () => compare(version.version) }, "Version " + version.version),
      " · " + (version.author || "—") + " · " + new Date(version.createdAt).toLocaleString()))), h("div", { id: "version-diff" }));
  }

  async function restore(number, text) {
    const restored = await attempt(() => spec.restore(number), "Not restored");
    if (!restored) return;
    spec.adopt({ etag: restored.etag, version: restored.version, text });
    onRestored(text);
    load();
    say("Version " + number + " restored as version " + restored.version + ".");
  }

  async function compare(number) {
    const text = await spec.versionText(number);
    element.querySelector("#version-diff").replaceChildren(h("h3", {}, "Version " + number + " → the editor"), diffView(text, code.text, "version " + number + " → editor"),
      editable ? h("button", { type: "button", onclick: () => restore(number, text) }, "Restore version " + number) : null);
  }

  return { element, load };
}
