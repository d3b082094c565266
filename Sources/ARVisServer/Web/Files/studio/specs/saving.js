// Saving the editor's text over the version it was loaded from. Someone else's newer version is
// found before writing, so the answer is a conflict to resolve rather than a 412; a 412 from a
// save racing another is handled alike.

import { say } from "../core/toast.js";

/// The save function: `save(over)` saves `code`'s text through `spec` (a SpecDocument), over the
/// ETag `over` when the author chose to replace that version. `onSaved()` after a save;
/// `onSettled()` after every attempt.
export function saver({ spec, code, checking, diagnostics, conflict, button, editable, onSaved, onSettled }) {
  /// Shows the conflict with `theirs`, or — when the spec was deleted meanwhile — says so and
  /// forgets the version, so the next save creates it.
  function conflictWith(mine, theirs) {
    if (!theirs) {
      say("The spec was deleted meanwhile; saving again creates it with your text.", "error");
      spec.adopt({ etag: null, version: 0, text: spec.saved });
      return;
    }
    conflict.show(mine, theirs);
  }

  return async function save(over) {
    const text = code.text;
    const started = Date.now();
    if (checking.lastChecked === text && diagnostics.hasErrors()) {
      say("Not saved: fix the errors first (they are listed under the editor).", "error");
      return;
    }
    button.disabled = true;
    try {
      const current = over ? undefined : await spec.changedSince();
      if (current !== undefined) { conflictWith(text, current); return; }
      const saved = await spec.save(text, over);
      conflict.hide();
      // When the save began and ended, for the end-to-end check that phones follow saves.
      window.studioSaved = { version: saved.version, started, at: Date.now() };
      say("Saved version " + saved.version + ".");
      onSaved();
    } catch (error) {
      if (error.status === 412) conflictWith(text, await spec.latest());
      else if (error.status === 422 && Array.isArray(error.details)) { diagnostics.show(error.details); say("Not saved: " + error.message, "error"); }
      else say("Not saved: " + error.message, "error");
    } finally {
      button.disabled = !editable;
      onSettled();
    }
  };
}
