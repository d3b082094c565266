// ARVis Studio's code editor: a textarea over a coloured copy of its text, line numbers,
// diagnostics marked at their line and column, did-you-mean fixes, and completion of keys and
// values from the spec schema (/schema.json). Used by the spec page (studio-editor.js).
"use strict";
(function (Studio) {
  const h = Studio.h;
  const escape = (text) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

  // --- Colouring, one line at a time ----------------------------------------------------------------
  const jsonToken = /("(?:[^"\\]|\\.)*"?)(\s*:)?|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|\b(true|false|null)\b|([{}[\],])/g;
  const yamlLine = /^(\s*(?:-\s+)*)((?:"[^"]*"|'[^']*'|[^\s#:'"-][^:#]*?)\s*:)(?=\s|$)/;

  function colourJSON(line) {
    let out = "", last = 0;
    for (const match of line.matchAll(jsonToken)) {
      out += escape(line.slice(last, match.index));
      const [text, string, colon, number, keyword] = match;
      const kind = string !== undefined ? (colon ? "key" : "str") : number !== undefined ? "num" : keyword !== undefined ? "kw" : "punct";
      out += colon ? "<span class=\"key\">" + escape(string) + "</span>" + escape(colon) : "<span class=\"" + kind + "\">" + escape(text) + "</span>";
      last = match.index + text.length;
    }
    return out + escape(line.slice(last));
  }

  function colourYAML(line) {
    const comment = line.search(/(^|\s)#/);
    const body = comment >= 0 ? line.slice(0, comment) : line, rest = comment >= 0 ? line.slice(comment) : "";
    const match = body.match(yamlLine);
    let out;
    if (match) {
      const value = body.slice(match[0].length);
      out = escape(match[1]) + "<span class=\"key\">" + escape(match[2]) + "</span>" + colourValue(value);
    } else out = colourValue(body);
    return out + (rest ? "<span class=\"comment\">" + escape(rest) + "</span>" : "");
  }

  function colourValue(text) {
    const trimmed = text.trim();
    if (/^(true|false|null|~)$/.test(trimmed)) return text.replace(trimmed, "<span class=\"kw\">" + trimmed + "</span>");
    if (/^-?\d+(\.\d+)?$/.test(trimmed)) return text.replace(trimmed, "<span class=\"num\">" + trimmed + "</span>");
    if (/^["']/.test(trimmed)) return escape(text).replace(escape(trimmed), "<span class=\"str\">" + escape(trimmed) + "</span>");
    return colourJSON(text);
  }

  /// The HTML of `line` coloured, with the token at `column` (1-based) underlined when given.
  function colourLine(line, yaml, column) {
    if (!column) return (yaml ? colourYAML : colourJSON)(line);
    const start = Math.min(column - 1, line.length);
    let end = start + 1;
    if (line[start] === "\"") { end = line.indexOf("\"", start + 1) + 1 || line.length; } else {
      const word = /^[^\s,:{}[\]]+/.exec(line.slice(start));
      end = start + (word ? word[0].length : 1);
    }
    end = Math.max(end, start + 1);
    const colour = (text) => (yaml ? colourYAML : colourJSON)(text);
    return colour(line.slice(0, start)) + "<mark class=\"squiggle\">" + escape(line.slice(start, end) || " ") + "</mark>" + colour(line.slice(end));
  }

  // --- Schema: what may go where ----------------------------------------------------------------
  let schemaPromise = null;
  const schema = () => schemaPromise || (schemaPromise = fetch("/schema.json").then((response) => response.json()));

  function resolve(root, node) {
    let guard = 0;
    while (node && node.$ref && guard++ < 32) node = root.$defs[node.$ref.replace("#/$defs/", "")];
    return node || {};
  }

  /// The schema nodes a path may lead to (every branch of oneOf/anyOf/allOf).
  function nodesAt(root, path) {
    let nodes = expand(root, root);
    for (const step of path) {
      const next = [];
      for (const node of nodes) {
        if (typeof step === "number") { if (node.items) next.push(...expand(root, node.items)); if (node.prefixItems) next.push(...node.prefixItems.flatMap((item) => expand(root, item))); } else {
          if (node.properties && node.properties[step]) next.push(...expand(root, node.properties[step]));
          else if (node.additionalProperties && typeof node.additionalProperties === "object") next.push(...expand(root, node.additionalProperties));
        }
      }
      nodes = next;
      if (!nodes.length) break;
    }
    return nodes;
  }

  function expand(root, node, depth) {
    node = resolve(root, node);
    if ((depth || 0) > 8) return [node];
    const branches = [].concat(node.oneOf || [], node.anyOf || [], node.allOf || []);
    return branches.length ? [node, ...branches.flatMap((branch) => expand(root, branch, (depth || 0) + 1))] : [node];
  }

  /// Completions for `text` at `offset`: keys where a key goes, values where a value goes.
  async function completions(text, offset, yaml) {
    const root = await schema();
    const place = (yaml ? yamlPlace : jsonPlace)(text, offset);
    if (!place) return { items: [], place };
    const nodes = nodesAt(root, place.path);
    const seen = new Map();
    for (const node of nodes) {
      if (place.key) {
        for (const [name, property] of Object.entries(node.properties || {})) {
          if (!seen.has(name)) seen.set(name, { label: name, detail: resolve(root, property).description || property.description || "" });
        }
      } else {
        for (const value of node.enum || []) seen.set(String(value), { label: JSON.stringify(value), value, detail: node.description || "" });
        if (node.const !== undefined) seen.set(String(node.const), { label: JSON.stringify(node.const), value: node.const, detail: "" });
        if (node.type === "boolean") for (const value of [true, false]) seen.set(String(value), { label: String(value), value, detail: "" });
      }
    }
    const prefix = place.prefix.toLowerCase();
    const items = [...seen.values()].filter((item) => (item.value === undefined ? item.label : String(item.value)).toLowerCase().startsWith(prefix));
    return { items: items.sort((a, b) => a.label.localeCompare(b.label)).slice(0, 60), place };
  }
  Studio.completions = completions;

  /// Where `offset` is in JSON text: the path of the container, whether a key goes there, the word typed.
  function jsonPlace(text, offset) {
    const stack = [];  // {kind: "object"|"array", key, index}
    let i = 0, expectKey = false, lastKey = null;
    while (i < offset) {
      const c = text[i];
      if (c === "\"") {
        let j = i + 1;
        while (j < text.length && text[j] !== "\"" && text[j] !== "\n") j += text[j] === "\\" ? 2 : 1;
        if (j >= offset) {
          const top = stack[stack.length - 1];
          return { path: pathOf(stack, top && top.kind === "object" && !expectKey ? lastKey : null), key: expectKey, prefix: text.slice(i + 1, offset), start: i, quoted: true };
        }
        const string = text.slice(i + 1, j);
        if (expectKey) { lastKey = string; expectKey = false; }
        i = j + 1;
        continue;
      }
      if (c === "{") { stack.push({ kind: "object", key: lastKey, index: null }); expectKey = true; lastKey = null; }
      else if (c === "[") { stack.push({ kind: "array", key: lastKey, index: 0 }); expectKey = false; lastKey = null; }
      else if (c === "}" || c === "]") { const closed = stack.pop(); lastKey = null; expectKey = false; if (closed && stack.length) stack[stack.length - 1].last = closed; }
      else if (c === ",") { const top = stack[stack.length - 1]; if (top && top.kind === "array") top.index++; if (top && top.kind === "object") { expectKey = true; lastKey = null; } }
      else if (c === ":") expectKey = false;
      i++;
    }
    if (!stack.length) return null;
    const top = stack[stack.length - 1];
    const word = /[A-Za-z0-9_$.-]*$/.exec(text.slice(0, offset))[0];
    return { path: pathOf(stack, top.kind === "object" && !expectKey ? lastKey : null), key: top.kind === "object" && expectKey, prefix: word, start: offset - word.length, quoted: false };
  }

  function pathOf(stack, valueKey) {
    const path = [];
    stack.forEach((frame, index) => {
      if (index > 0) {
        const parent = stack[index - 1];
        path.push(parent.kind === "array" ? parent.index : frame.key);
      }
    });
    const top = stack[stack.length - 1];
    if (top && top.kind === "array") path.push(top.index);
    if (valueKey !== null && valueKey !== undefined) path.push(valueKey);
    return path;
  }

  /// Where `offset` is in YAML text, from the keys of the lines above with less indentation.
  function yamlPlace(text, offset) {
    const before = text.slice(0, offset);
    const lines = before.split("\n");
    const current = lines.pop();
    const keyMatch = /^(\s*)(-\s+)?([A-Za-z0-9_$.-]*)$/.exec(current);
    const valueMatch = /^(\s*)(-\s+)?([A-Za-z0-9_$."'-]+)\s*:\s*([A-Za-z0-9_.-]*)$/.exec(current);
    let indent = (keyMatch || valueMatch || [null, ""])[1].length + ((keyMatch || valueMatch || [])[2] || "").length;
    const path = [];
    for (let n = lines.length - 1; n >= 0 && indent > 0; n--) {
      const line = lines[n];
      if (!line.trim() || /^\s*#/.test(line)) continue;
      const own = /^(\s*)(-\s+)?(?:([^\s:#][^:#]*?)\s*:)?/.exec(line);
      const lineIndent = own[1].length;
      const dashIndent = lineIndent + (own[2] || "").length;
      if (own[2] && lineIndent < indent) {
        if (dashIndent < indent && own[3]) path.unshift(own[3].replace(/^["']|["']$/g, ""));
        path.unshift(0);
        indent = lineIndent;
      } else if (lineIndent < indent && own[3]) { path.unshift(own[3].replace(/^["']|["']$/g, "")); indent = lineIndent; }
    }
    if (valueMatch) {
      path.push(valueMatch[3].replace(/^["']|["']$/g, ""));
      return { path, key: false, prefix: valueMatch[4], start: offset - valueMatch[4].length, quoted: false };
    }
    if (keyMatch) return { path, key: true, prefix: keyMatch[3], start: offset - keyMatch[3].length, quoted: false };
    return null;
  }

  // --- The editor -------------------------------------------------------------------------------
  /// A code editor in `host`; `onChange(text)` after every edit.
  Studio.CodeEditor = class {
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

    /// Replaces the whole text (loading a version, taking theirs), keeping undo where the browser can.
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

    /// Marks `diagnostics` (the server's) at their lines and columns.
    mark(diagnostics) {
      this.marks = new Map();
      for (const diagnostic of diagnostics) if (!this.marks.has(diagnostic.line)) this.marks.set(diagnostic.line, diagnostic);
      this.paint();
    }

    /// Colours the lines in view and a screenful either side (a 180 KB spec has thousands of lines;
    /// colouring them all on every key would not keep up with typing).
    paint() {
      const lines = this.lines || (this.lines = this.text.split("\n"));
      const marks = this.marks || new Map();
      const lineHeight = this.lineHeight || (this.lineHeight = parseFloat(getComputedStyle(this.input).lineHeight) || 19);
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

    /// The offset of line `line`, column `column` (both from 1).
    offsetOf(line, column) {
      const lines = this.text.split("\n");
      let offset = 0;
      for (let n = 0; n < Math.min(line - 1, lines.length); n++) offset += lines[n].length + 1;
      return offset + Math.max(0, column - 1);
    }

    /// Puts the caret at `line`:`column` and scrolls it into view.
    reveal(line, column) {
      const offset = this.offsetOf(line, column);
      this.input.focus();
      this.input.setSelectionRange(offset, offset);
      const lineHeight = parseFloat(getComputedStyle(this.input).lineHeight) || 18;
      this.input.scrollTop = Math.max(0, (line - 4) * lineHeight);
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

    /// The did-you-mean fix of `diagnostic`: its suggestion in place of the word at its location.
    static fixOf(diagnostic) {
      const match = /did you mean '([^']+)'\?/.exec(diagnostic.hint || "");
      return match ? match[1] : null;
    }

    applyFix(diagnostic) {
      const suggestion = Studio.CodeEditor.fixOf(diagnostic);
      if (!suggestion) return false;
      const start = this.offsetOf(diagnostic.line, diagnostic.column);
      const text = this.text;
      let from = start, to;
      if (text[start] === "\"") { from = start + 1; to = text.indexOf("\"", from); } else {
        const word = /^[^\s,:{}[\]"']+/.exec(text.slice(start));
        if (!word) return false;
        to = start + word[0].length;
      }
      if (to < from) return false;
      this.replace(from, to, suggestion);
      return true;
    }

    // --- Completion ---
    key(event) {
      if (!this.menu.hidden) {
        const items = [...this.menu.children];
        const active = items.findIndex((item) => item.getAttribute("aria-selected") === "true");
        if (event.key === "ArrowDown" || event.key === "ArrowUp") {
          event.preventDefault();
          const next = (active + (event.key === "ArrowDown" ? 1 : items.length - 1)) % items.length;
          items.forEach((item, index) => item.setAttribute("aria-selected", String(index === next)));
          items[next].scrollIntoView({ block: "nearest" });
          this.input.setAttribute("aria-activedescendant", items[next].id);
          return;
        }
        if (event.key === "Enter" || event.key === "Tab") { event.preventDefault(); this.accept(this.items[Math.max(0, active)]); return; }
        if (event.key === "Escape") { event.preventDefault(); this.closeMenu(); return; }
      }
      if ((event.ctrlKey || event.metaKey) && (event.key === " " || event.code === "Space")) { event.preventDefault(); this.complete(); return; }
      if (event.key === "Tab" && !event.shiftKey && !event.ctrlKey) {
        // Two spaces, not a focus change; Escape then Tab leaves the editor (keyboard users).
        if (this.escaped) { this.escaped = false; return; }
        event.preventDefault();
        this.replace(this.input.selectionStart, this.input.selectionEnd, "  ");
      }
      this.escaped = event.key === "Escape";
    }

    /// Shows the keys or values that may go at the caret.
    async complete() {
      const offset = this.input.selectionStart;
      const { items, place } = await completions(this.text, offset, this.yaml);
      this.items = items;
      this.place = place;
      if (!items.length) { Studio.say("Nothing to complete here."); return; }
      this.menu.replaceChildren(...items.map((item, index) => h("li", { id: "completion-" + index, role: "option", "aria-selected": String(index === 0),
        onmousedown: (event) => { event.preventDefault(); this.accept(item); } }, h("code", {}, item.label), item.detail ? h("small", {}, " " + item.detail) : null)));
      const before = this.text.slice(0, offset).split("\n");
      const lineHeight = parseFloat(getComputedStyle(this.input).lineHeight) || 18;
      const charWidth = this.charWidth || (this.charWidth = measureCharacter(this.input));
      this.menu.style.top = Math.max(0, before.length * lineHeight - this.input.scrollTop + 8) + "px";
      this.menu.style.left = Math.max(0, 48 + before[before.length - 1].length * charWidth - this.input.scrollLeft) + "px";
      this.menu.hidden = false;
      this.input.setAttribute("aria-activedescendant", "completion-0");
    }

    accept(item) {
      const place = this.place;
      this.closeMenu();
      if (!item || !place) return;
      const offset = this.input.selectionStart;
      let text;
      if (place.key) text = this.yaml ? item.label + ": " : (place.quoted ? item.label + "\": " : "\"" + item.label + "\": ");
      else text = this.yaml ? String(item.value) : (place.quoted ? String(item.value) + "\"" : item.label);
      let end = offset;
      if (place.quoted && this.text[offset] === "\"") end = offset + 1;
      this.replace(place.quoted ? place.start + 1 : place.start, end, text);
    }

    closeMenu() {
      if (this.menu.hidden) return;
      this.menu.hidden = true;
      this.input.removeAttribute("aria-activedescendant");
    }
  };

  function measureCharacter(input) {
    const probe = h("span", { class: "probe" }, "0000000000");
    input.parentNode.append(probe);
    const width = probe.getBoundingClientRect().width / 10;
    probe.remove();
    return width || 8;
  }

  // --- Line diff (versions, conflicts) ------------------------------------------------------------
  /// The lines of `a` and `b` as [kind, text] with kind " ", "-" or "+" (Myers' O(ND) diff).
  Studio.diffLines = (a, b) => {
    const x = a.split("\n"), y = b.split("\n");
    const n = x.length, m = y.length, max = n + m, limit = 2000;
    const v = new Int32Array(2 * max + 2), trace = [];
    const at = (entry, k) => entry.w[max + k - entry.base];
    let found = false;
    for (let d = 0; d <= max && !found; d++) {
      if (d > limit) return null;
      const base = Math.max(0, max - d - 1);
      trace.push({ base, w: v.slice(base, max + d + 2) });
      for (let k = -d; k <= d; k += 2) {
        let i = (k === -d || (k !== d && v[max + k - 1] < v[max + k + 1])) ? v[max + k + 1] : v[max + k - 1] + 1;
        let j = i - k;
        while (i < n && j < m && x[i] === y[j]) { i++; j++; }
        v[max + k] = i;
        if (i >= n && j >= m) { found = true; break; }
      }
    }
    const out = [];
    let i = n, j = m;
    for (let d = trace.length - 1; d >= 0; d--) {
      const entry = trace[d], k = i - j;
      const previous = (k === -d || (k !== d && at(entry, k - 1) < at(entry, k + 1))) ? k + 1 : k - 1;
      const pi = d === 0 ? 0 : at(entry, previous), pj = d === 0 ? 0 : pi - previous;
      while (i > pi && j > pj) { out.push([" ", x[--i]]); j--; }
      if (d > 0) { if (i === pi) out.push(["+", y[--j]]); else out.push(["-", x[--i]]); }
    }
    return out.reverse();
  };

  /// A diff as a list, with unchanged runs folded to three lines of context.
  Studio.diffView = (a, b, labels) => {
    const lines = Studio.diffLines(a, b);
    if (!lines) return h("p", {}, "The two texts differ too much to show line by line.");
    const changed = lines.map((line) => line[0] !== " ");
    const keep = lines.map((_, index) => changed.slice(Math.max(0, index - 3), index + 4).some(Boolean));
    const rows = [];
    let skipped = 0;
    lines.forEach((line, index) => {
      if (!keep[index]) { skipped++; return; }
      if (skipped) { rows.push(h("li", { class: "skip" }, "… " + skipped + " unchanged lines")); skipped = 0; }
      rows.push(h("li", { class: line[0] === "+" ? "added" : line[0] === "-" ? "removed" : "" }, h("span", { class: "sign", "aria-label": line[0] === "+" ? "added" : line[0] === "-" ? "removed" : "" }, line[0]), line[1]));
    });
    if (skipped) rows.push(h("li", { class: "skip" }, "… " + skipped + " unchanged lines"));
    const added = lines.filter((line) => line[0] === "+").length, removed = lines.filter((line) => line[0] === "-").length;
    return h("div", { class: "diff" }, h("p", { class: "muted" }, (labels ? labels + ": " : "") + "+" + added + " −" + removed + " lines"),
      added + removed === 0 ? h("p", {}, "No difference.") : h("ol", {}, rows));
  };
})(window.Studio);
