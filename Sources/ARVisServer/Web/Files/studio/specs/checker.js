// Checking as you type: the server's diagnostics a moment after the last key, then — when there
// are no errors — its drawings after a longer pause. Only the newest check's answers are shown.

import { api } from "../core/api.js";
import { isYAML, mediaTypeOf } from "./spec-text.js";

/// How long after the last key the spec is checked, and how much longer before it is drawn again.
export const debounce = 120, drawPause = 400;

const pause = (milliseconds) => new Promise((resolve) => setTimeout(resolve, milliseconds));

/// Checks the text of `code` (a CodeEditor) as spec `name`: `onDiagnostics(list)`, then
/// `onDrawn(result)` with the preview; `onFailure(error)` when the server cannot be asked.
/// Returns {schedule(), check(), stop(), lastChecked}.
export function checker({ name, code, onDiagnostics, onDrawn, onFailure }) {
  let timer = 0, ticket = 0, lastChecked = null, drawn = false;
  const ask = (text, draw) => api("POST", "/api/v1/preview?draw=" + draw + "&name=" + encodeURIComponent(name), { body: text, type: mediaTypeOf(text) });

  /// Diagnostics first (a quick read), then the drawings.
  async function check() {
    const text = code.text;
    if (text === lastChecked) return;
    const mine = ++ticket;
    code.setYAML(isYAML(text));
    try {
      const read = await ask(text, false);
      if (mine !== ticket) return;
      lastChecked = text;
      onDiagnostics(read.diagnostics);
      if (read.diagnostics.some((item) => item.severity === "error")) return;
      // Drawing waits for a longer pause once something is drawn: typing is never held up by frames loading.
      if (drawn) await pause(drawPause);
      if (mine !== ticket) return;
      const result = await ask(text, true);
      if (mine === ticket && result.preview) { drawn = true; onDrawn(result); }
    } catch (error) { onFailure(error); }
  }

  return {
    schedule() { clearTimeout(timer); timer = setTimeout(check, debounce); },
    check,
    stop() { clearTimeout(timer); },
    /// The text whose diagnostics are shown (null before the first answer).
    get lastChecked() { return lastChecked; },
  };
}
