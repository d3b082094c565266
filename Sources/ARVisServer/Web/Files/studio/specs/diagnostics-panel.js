// The editor's problems: a summary (announced as it changes) and the list of diagnostics, each
// going to its place, with its did-you-mean fix as a button.

import { fixOf } from "../code/text-position.js";
import { h } from "../core/dom.js";
import { say } from "../core/toast.js";
import { diagnosticsSummary } from "./save-state.js";

/// The most diagnostics listed.
const listed = 200;

function problem(code, item) {
  const fix = fixOf(item);
  return h("li", { class: item.severity, dataset: { line: item.line, column: item.column } },
    h("button", { type: "button", class: "link place", onclick: () => code.reveal(item.line, item.column),
      "aria-label": "Go to line " + item.line + ", column " + item.column }, item.line + ":" + item.column),
    h("span", { class: "severity" }, item.severity), " ", h("span", { class: "message" }, item.message),
    item.path ? h("code", { class: "path" }, item.path) : null,
    item.hint ? h("span", { class: "hint" }, item.hint) : null,
    fix ? h("button", { type: "button", class: "fix", onclick: () => { if (code.applyFix(item)) say("Replaced with '" + fix + "'."); } }, "Fix: use '" + fix + "'") : null);
}

/// The panel of `code`'s diagnostics: {element, show(diagnostics), failed(error), hasErrors()}.
export function diagnosticsPanel(code) {
  const summary = h("p", { id: "diagnostics-summary", class: "muted", role: "status", "aria-live": "polite" }, "Checking…");
  const problems = h("ol", { id: "diagnostics", class: "diagnostics", "aria-label": "Problems" });
  return {
    element: h("div", { class: "problems" }, summary, problems),
    /// Marks `diagnostics` in the editor and lists them.
    show(diagnostics) {
      code.mark(diagnostics);
      const { text, errors } = diagnosticsSummary(diagnostics);
      summary.textContent = text;
      summary.className = errors ? "error" : "ok";
      problems.replaceChildren(...diagnostics.slice(0, listed).map((item) => problem(code, item)));
    },
    failed(error) { summary.textContent = "Not checked: " + error.message; },
    /// Whether the list shows an error.
    hasErrors: () => problems.querySelector("li.error") !== null,
  };
}
