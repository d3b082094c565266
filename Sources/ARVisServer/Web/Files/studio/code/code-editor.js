// ARVis Studio's code editor: a textarea over a coloured copy of its text, line numbers,
// diagnostics marked at their line and column, did-you-mean fixes, and completion of keys and
// values from the spec schema (/schema.json). Used by the spec editor (specs/editor.js).

import { h } from "../core/dom.js";
import { say } from "../core/toast.js";
import { completions, insertionOf, replacedRange } from "./completion.js";
import { colourLine } from "./highlight.js";
import { fixOf, fixRange, offsetOf } from "./text-position.js";

let schemaPromise = null;
/// The spec schema, fetched once.
const loadSchema = () => schemaPromise || (schemaPromise = fetch("/schema.json").then((response) => response.json()));

/// The width of a character of the editor's font (the width of ten, measured, over ten).
function measureCharacter(input) {
  const probe = h("span", { class: "probe" }, "0000000000");
  input.parentNode.append(probe);
  const width = probe.getBoundingClientRect().width / 10;
  probe.remove();
  return width || 8;
}

const lineHeightOf = (input, fallback) => parseFloat(getComputedStyle(input).lineHeight) || fallback;

export class CodeEditor {
  /// Options: `text`, `yaml` (colour as YAML), `label` and `describedBy` (for screen readers),
  /// `onChange(text)` after every edit.
  constructor(options) {
    this.onChange = options.onChange;
    this.yaml = !!options.yaml;
    this.marks = new Map();
    this.gutter = h("div", { class: "gutter", "aria-hidden": "true" });
    this.coloured = h("pre", { class: "coloured", "aria-hidden": "true" });
    this.input = h("textarea", { class: "input", spellcheck: false, autocapitalize: "off", autocomplete: "off", wrap: "off",
      "aria-label": options.label || "Spec", "aria-describedby": options.describedBy || null,
      oninput: () => this.changed(), onscroll: () => this.syncScroll(), onkeydown: (event) => this.key(event) });
    this.menu = h("ul", { class: "completions", role: "listbox", hidden: true, "aria-label": "Completions" });
    this.element = h("div", { class: "code" }, this.gutter, h("div", { class: "layers" }, this.coloured, this.input), this.menu);
    this.set(options.text || "");
    new ResizeObserver(() => this.schedulePaint()).observe(this.input);
  }

  get text() { return this.input.value; }

  /// Replaces the whole text (loading a version, taking theirs).
  set(text) {
    this.input.value = text;
    this.lines = null;
    this.paint();
  }

  setYAML(yaml) { if (yaml !== this.yaml) { this.yaml = yaml; this.paint(); } }

  changed() {
    this.closeMenu();
    this.lines = null;
    this.schedulePaint();
    this.onChange(this.text);
  }

  schedulePaint() {
    if (this.painting) return;
    this.painting = true;
    requestAnimationFrame(() => { this.painting = false; this.paint(); });
  }

  /// Marks `diagnostics` (the server's) at their lines and columns, the first of each line.
  mark(diagnostics) {
    this.marks = new Map();
    for (const diagnostic of diagnostics) if (!this.marks.has(diagnostic.line)) this.marks.set(diagnostic.line, diagnostic);
    this.paint();
  }

  // --- Painting ---
  /// Colours the lines in view and a screenful either side (a 180 KB spec has thousands of lines;
  /// colouring them all on every key would not keep up with typing).
  paint() {
    const lines = this.lines || (this.lines = this.text.split("\n"));
    const marks = this.marks || new Map();
    const lineHeight = this.lineHeight || (this.lineHeight = lineHeightOf(this.input, 19));
    const visible = Math.ceil((this.input.clientHeight || 600) / lineHeight);
    const top = Math.floor(this.input.scrollTop / lineHeight);
    const first = Math.max(0, top - visible), last = Math.min(lines.length, top + 2 * visible);
    const html = [], numbers = [];
    for (let index = first; index < last; index++) {
      const mark = marks.get(index + 1);
      const coloured = colourLine(lines[index], this.yaml, mark && mark.column);
      html.push(mark ? "<span class=\"line " + mark.severity + "\">" + coloured + "</span>" : coloured);
      numbers.push(mark ? "<span class=\"" + mark.severity + "\">" + (index + 1) + "</span>" : String(index + 1));
    }
    this.coloured.innerHTML = html.join("\n") + "\n";
    this.gutter.innerHTML = numbers.join("\n");
    this.gutter.style.minWidth = (String(lines.length).length + 2) + "ch";
    this.painted = { first, last, lineHeight };
    this.syncScroll();
  }

  /// Keeps the coloured copy and the line numbers under the textarea as it scrolls, painting
  /// again when it scrolls past what was painted.
  syncScroll() {
    const painted = this.painted;
    if (!painted) return;
    const top = Math.floor(this.input.scrollTop / painted.lineHeight);
    const visible = Math.ceil((this.input.clientHeight || 600) / painted.lineHeight);
    if ((top < painted.first || top + visible > painted.last) && painted.last - painted.first < (this.lines || []).length) { this.schedulePaint(); }
    const offset = painted.first * painted.lineHeight - this.input.scrollTop;
    this.coloured.style.transform = "translate(" + -this.input.scrollLeft + "px," + offset + "px)";
    this.gutter.style.transform = "translateY(" + offset + "px)";
  }

  // --- Places and edits ---
  /// The offset of line `line`, column `column` (both from 1).
  offsetOf(line, column) { return offsetOf(this.text, line, column); }

  /// Puts the caret at `line`:`column` and scrolls it into view.
  reveal(line, column) {
    const offset = this.offsetOf(line, column);
    this.input.focus();
    this.input.setSelectionRange(offset, offset);
    this.input.scrollTop = Math.max(0, (line - 4) * lineHeightOf(this.input, 18));
    this.syncScroll();
  }

  /// Replaces `from`…`to` with `text` as an edit the browser can undo.
  replace(from, to, text) {
    this.input.focus();
    this.input.setSelectionRange(from, to);
    if (!document.execCommand || !document.execCommand("insertText", false, text)) {
      this.input.setRangeText(text, from, to, "end");
      this.changed();
    }
  }

  /// Applies the did-you-mean fix of `diagnostic`: its suggestion in place of the word at its
  /// location. Whether there was one to apply.
  applyFix(diagnostic) {
    const suggestion = fixOf(diagnostic);
    if (!suggestion) return false;
    const range = fixRange(this.text, this.offsetOf(diagnostic.line, diagnostic.column));
    if (!range) return false;
    this.replace(range[0], range[1], suggestion);
    return true;
  }

  // --- Keys and completion ---
  key(event) {
    if (!this.menu.hidden && this.menuKey(event)) return;
    if ((event.ctrlKey || event.metaKey) && (event.key === " " || event.code === "Space")) { event.preventDefault(); this.complete(); return; }
    if (event.key === "Tab" && !event.shiftKey && !event.ctrlKey) {
      // Two spaces, not a focus change; Escape then Tab leaves the editor (keyboard users).
      if (this.escaped) { this.escaped = false; return; }
      event.preventDefault();
      this.replace(this.input.selectionStart, this.input.selectionEnd, "  ");
    }
    this.escaped = event.key === "Escape";
  }

  /// The keys of the open completion menu: arrows move, Enter or Tab accept, Escape closes.
  /// Whether the key was the menu's.
  menuKey(event) {
    const items = [...this.menu.children];
    const active = items.findIndex((item) => item.getAttribute("aria-selected") === "true");
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      const next = (active + (event.key === "ArrowDown" ? 1 : items.length - 1)) % items.length;
      items.forEach((item, index) => item.setAttribute("aria-selected", String(index === next)));
      items[next].scrollIntoView({ block: "nearest" });
      this.input.setAttribute("aria-activedescendant", items[next].id);
      return true;
    }
    if (event.key === "Enter" || event.key === "Tab") { event.preventDefault(); this.accept(this.items[Math.max(0, active)]); return true; }
    if (event.key === "Escape") { event.preventDefault(); this.closeMenu(); return true; }
    return false;
  }

  /// Shows the keys or values that may go at the caret.
  async complete() {
    const offset = this.input.selectionStart;
    const { items, place } = completions(await loadSchema(), this.text, offset, this.yaml);
    this.items = items;
    this.place = place;
    if (!items.length) { say("Nothing to complete here."); return; }
    this.menu.replaceChildren(...items.map((item, index) => h("li", { id: "completion-" + index, role: "option", "aria-selected": String(index === 0),
      onmousedown: (event) => { event.preventDefault(); this.accept(item); } }, h("code", {}, item.label), item.detail ? h("small", {}, " " + item.detail) : null)));
    this.placeMenu(offset);
    this.menu.hidden = false;
    this.input.setAttribute("aria-activedescendant", "completion-0");
  }

  /// Puts the menu under the caret at `offset`.
  placeMenu(offset) {
    const before = this.text.slice(0, offset).split("\n");
    const lineHeight = lineHeightOf(this.input, 18);
    const charWidth = this.charWidth || (this.charWidth = measureCharacter(this.input));
    this.menu.style.top = Math.max(0, before.length * lineHeight - this.input.scrollTop + 8) + "px";
    this.menu.style.left = Math.max(0, 48 + before[before.length - 1].length * charWidth - this.input.scrollLeft) + "px";
  }

  accept(item) {
    const place = this.place;
    this.closeMenu();
    if (!item || !place) return;
    const [from, to] = replacedRange(place, this.text, this.input.selectionStart);
    this.replace(from, to, insertionOf(item, place, this.yaml));
  }

  closeMenu() {
    if (this.menu.hidden) return;
    this.menu.hidden = true;
    this.input.removeAttribute("aria-activedescendant");
  }
}
