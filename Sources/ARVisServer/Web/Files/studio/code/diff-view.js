// A line diff shown as a list: added and removed lines marked, unchanged runs folded.

import { h } from "../core/dom.js";
import { diffCounts, diffLines, foldDiff } from "./diff.js";

const kindClass = { "+": "added", "-": "removed", " ": "" };

/// The diff of `a` → `b`, captioned "`labels`: +N −M lines".
export function diffView(a, b, labels) {
  const lines = diffLines(a, b);
  if (!lines) return h("p", {}, "The two texts differ too much to show line by line.");
  const rows = foldDiff(lines).map((row) => row.kind === "skip" ? h("li", { class: "skip" }, "… " + row.count + " unchanged lines")
    : h("li", { class: kindClass[row.kind] }, h("span", { class: "sign", "aria-label": kindClass[row.kind] }, row.kind), row.text));
  const { added, removed } = diffCounts(lines);
  return h("div", { class: "diff" }, h("p", { class: "muted" }, (labels ? labels + ": " : "") + "+" + added + " −" + removed + " lines"),
    added + removed === 0 ? h("p", {}, "No difference.") : h("ol", {}, rows));
}
