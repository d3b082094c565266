// The spec editor: the code editor with its diagnostics as you type, did-you-mean fixes and
// completion; save with conflict handling; and the preview — every widget (the server's HTML
// renders), the scene in the orbit viewer, the phone's QR code and link, the versions (diff,
// restore). This module puts the parts together.

import { CodeEditor } from "../code/code-editor.js";
import { attempt } from "../core/api.js";
import { h } from "../core/dom.js";
import { onLeave, projectNav, show } from "../core/page.js";
import { canEdit } from "../core/roles.js";
import { go } from "../core/router.js";
import { say } from "../core/toast.js";
import { checker } from "./checker.js";
import { conflictPanel } from "./conflict-panel.js";
import { diagnosticsPanel } from "./diagnostics-panel.js";
import { phonePanel } from "./phone-panel.js";
import { previewPanels } from "./preview-panels.js";
import { saveStatus } from "./save-state.js";
import { saver } from "./saving.js";
import { SpecDocument } from "./spec-document.js";
import { isYAML, starter } from "./spec-text.js";
import { tabList } from "./tabs.js";
import { versionsPanel } from "./versions-panel.js";

/// The Delete button: a spec never saved is only left.
function deleteButton(project, name, spec) {
  const list = "#/p/" + project.slug + "/specs";
  return h("button", { type: "button", onclick: async () => {
    if (!spec.version) { go(list); return; }
    if (!confirm("Delete the spec " + name + " and all its versions?")) return;
    if (await attempt(() => spec.remove(), "Not deleted") !== undefined) { say(name + " deleted."); go(list); }
  } }, "Delete spec");
}

/// Ctrl+S (⌘S) saves while the page is shown.
function saveShortcut(save) {
  const listener = (event) => {
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "s") { event.preventDefault(); save(); }
  };
  document.addEventListener("keydown", listener);
  onLeave(() => document.removeEventListener("keydown", listener));
}

/// Opens spec `name` of `project` in the editor (a new spec: the starter text, saved as version 1).
export async function editorPage(project, name) {
  const editable = canEdit(project);
  const spec = new SpecDocument(project.slug, name);
  const stored = await spec.load();
  const text = stored ? stored.text : starter;

  const status = h("p", { id: "save-status", class: "muted", role: "status", "aria-live": "polite" });
  const button = h("button", { type: "button", class: "primary", id: "save", onclick: () => save(), disabled: !editable }, "Save");
  const showDirty = () => {
    const shown = saveStatus(spec.version, code.text !== spec.saved);
    status.textContent = shown.text;
    button.textContent = shown.button;
  };
  /// The editor holds a new text from elsewhere (their version, a restored one).
  const replaceText = (next) => { code.set(next); checking.schedule(); showDirty(); };

  const code = new CodeEditor({ text, yaml: isYAML(text), label: "Spec " + name + " (JSON or YAML)", describedBy: "diagnostics-summary",
    onChange: () => { checking.schedule(); showDirty(); } });
  const diagnostics = diagnosticsPanel(code);
  const previews = previewPanels();
  const phone = phonePanel(project, name);
  const versions = versionsPanel({ spec, code, editable, onRestored: (restored) => { replaceText(restored); phone.show(spec.version); } });
  const checking = checker({ name, code, onDiagnostics: diagnostics.show, onDrawn: previews.update, onFailure: diagnostics.failed });
  const conflict = conflictPanel({
    keepMine: (theirTag) => save(theirTag),
    takeTheirs: (theirs) => { spec.adopt(theirs); replaceText(theirs.text); say("Theirs is in the editor; yours stays in this panel."); },
  });
  const save = saver({ spec, code, checking, diagnostics, conflict, button, editable,
    onSaved: () => { phone.show(spec.version); versions.load(); }, onSettled: showDirty });
  const tabs = tabList([{ id: "widgets", label: "Widgets", panel: previews.widgets }, { id: "scene", label: "Scene", panel: previews.scene },
    { id: "phone", label: "Phone", panel: phone.element }, { id: "versions", label: "Versions", panel: versions.element }], "Preview", previews.opened);

  saveShortcut(() => { if (editable) save(); });
  onLeave(() => checking.stop());
  show(name, projectNav(project, "specs"),
    h("div", { class: "editor-head" }, h("h1", {}, name), status, button, editable ? deleteButton(project, name, spec) : null,
      h("span", { class: "muted keys" }, "Ctrl+S saves · Ctrl+Space completes · Esc then Tab leaves the editor")),
    conflict.element,
    h("div", { class: "workbench" },
      h("section", { class: "edit", "aria-label": "Editor" }, code.element, diagnostics.element),
      h("section", { class: "preview", "aria-label": "Preview" }, tabs.element, ...tabs.panels)));
  showDirty();
  phone.show(spec.version);
  versions.load();
  checking.check();
}
