// The spec editor's pure parts: colouring (studio/code/highlight.js), offsets and did-you-mean
// fixes (studio/code/text-position.js), the spec's format (studio/specs/spec-text.js) and what
// saving sends and shows (studio/specs/save-state.js).
import assert from "node:assert/strict";
import { test } from "node:test";
import { colourJSON, colourLine, colourYAML, escapeHTML } from "../../Sources/ARVisServer/Web/Files/studio/code/highlight.js";
import { fixOf, fixRange, offsetOf } from "../../Sources/ARVisServer/Web/Files/studio/code/text-position.js";
import { diagnosticsSummary, preconditions, saveStatus } from "../../Sources/ARVisServer/Web/Files/studio/specs/save-state.js";
import { isYAML, mediaTypeOf, starter } from "../../Sources/ARVisServer/Web/Files/studio/specs/spec-text.js";

test("text is escaped, never HTML", () => {
  assert.equal(escapeHTML("<script>&amp;</script>"), "&lt;script&gt;&amp;amp;&lt;/script&gt;");
  assert.equal(colourJSON('"<b>"'), '<span class="str">"&lt;b&gt;"</span>');
  assert.equal(colourYAML("title: <img src=x onerror=alert(1)>"), '<span class="key">title:</span> &lt;img src=x onerror=alert(<span class="num">1</span>)&gt;');
});

test("JSON: keys, strings, numbers, keywords and punctuation", () => {
  assert.equal(colourJSON('  "width": 0.3, "on": true, "list": [-1e3, null]'),
    '  <span class="key">"width"</span>: <span class="num">0.3</span><span class="punct">,</span> <span class="key">"on"</span>: <span class="kw">true</span>'
    + '<span class="punct">,</span> <span class="key">"list"</span>: <span class="punct">[</span><span class="num">-1e3</span><span class="punct">,</span> <span class="kw">null</span><span class="punct">]</span>');
  assert.equal(colourJSON(""), "");
  assert.equal(colourJSON('"unterminated'), '<span class="str">"unterminated</span>');
});

test("YAML: the key, the value by its kind, and the comment", () => {
  assert.equal(colourYAML("  - physicalWidth: 0.3  # metres"), '  - <span class="key">physicalWidth:</span> <span class="num">0.3</span> <span class="comment"> # metres</span>');
  assert.equal(colourYAML("visible: ~"), '<span class="key">visible:</span> <span class="kw">~</span>');
  assert.equal(colourYAML("name: 'Café'"), '<span class="key">name:</span> <span class="str">\'Café\'</span>');
  assert.equal(colourYAML("# only a comment"), '<span class="comment"># only a comment</span>');
  assert.equal(colourYAML("url: http://x/#a"), '<span class="key">url:</span> http://x/#a', "a # inside a word is not a comment");
});

test("the token a diagnostic points at is underlined: a string whole, else a word", () => {
  assert.equal(colourLine('  "type": "BarMak",', false, 11),
    '  <span class="key">"type"</span>: <mark class="squiggle">"BarMak"</mark><span class="punct">,</span>');
  assert.equal(colourLine("type: BarMak", true, 7), '<span class="key">type:</span> <mark class="squiggle">BarMak</mark>');
  assert.equal(colourLine("ab", false, 10), 'ab<mark class="squiggle"> </mark>', "past the end: a blank is marked");
  assert.equal(colourLine("", true, 1), '<mark class="squiggle"> </mark>');
  assert.equal(colourLine("x: 1", true, 0), colourYAML("x: 1"), "no column: nothing marked");
});

test("offsets of lines and columns count UTF-16 code units", () => {
  const text = "ab\ncdé\n😀x";
  assert.equal(offsetOf(text, 1, 1), 0);
  assert.equal(offsetOf(text, 2, 3), 5);
  assert.equal(offsetOf(text, 3, 3), 9, "the emoji is two code units");
  assert.equal(text[offsetOf(text, 3, 3)], "x");
  assert.equal(offsetOf(text, 9, 1), text.length + 1, "past the last line");
  assert.equal(offsetOf("", 1, 1), 0);
  assert.equal(offsetOf("abc", 1, 0), 0, "column 0 is the line's start");
});

test("the fix of a diagnostic is its did-you-mean suggestion", () => {
  assert.equal(fixOf({ hint: "did you mean 'BarMark'?" }), "BarMark");
  assert.equal(fixOf({ hint: "unknown mark; did you mean 'relativeAnchorPoint'? (see the grammar)" }), "relativeAnchorPoint");
  assert.equal(fixOf({ hint: "use a number" }), null);
  assert.equal(fixOf({}), null);
});

test("a fix replaces the string at the diagnostic, inside its quotes, or the bare word", () => {
  const json = '{"type": "BarMak"}';
  assert.deepEqual(fixRange(json, 9), [10, 16]);
  assert.equal(json.slice(10, 16), "BarMak");
  assert.deepEqual(fixRange("type: BarMak # x", 6), [6, 12]);
  assert.deepEqual(fixRange("type: BarMak", 12), null, "nothing at the end of the text");
  assert.equal(fixRange('{"type": "BarMak', 9), null, "an unterminated string");
  assert.deepEqual(fixRange("a: naïve", 3), [3, 8]);
});

test("a spec is YAML unless it opens with { or [", () => {
  assert.equal(isYAML("  \n {\"a\": 1}"), false);
  assert.equal(isYAML("[1]"), false);
  assert.equal(isYAML("a: 1"), true);
  assert.equal(isYAML(""), true);
  assert.equal(mediaTypeOf("{}"), "application/json");
  assert.equal(mediaTypeOf("# comment\n{}"), "application/yaml");
});

test("a new spec starts from an image target with one text widget", () => {
  const spec = JSON.parse(starter);
  assert.equal(spec.imageTrackingConfigurations[0].relationships[0].widgetConfiguration.component.text.content, "**Hello from ARVis**");
  assert.ok(starter.endsWith("}\n"));
});

test("saves are conditional: over the chosen version, the held one, or only a new spec", () => {
  assert.deepEqual(preconditions('"3-ab"', '"2-cd"'), { "If-Match": '"3-ab"' });
  assert.deepEqual(preconditions(undefined, '"2-cd"'), { "If-Match": '"2-cd"' });
  assert.deepEqual(preconditions(undefined, null), { "If-None-Match": "*" });
});

test("the save status names the version and whether the text differs from it", () => {
  assert.deepEqual(saveStatus(0, true), { text: "Not saved yet · unsaved changes", button: "Save" });
  assert.deepEqual(saveStatus(4, false), { text: "Version 4 · saved", button: "Saved" });
});

test("the diagnostics summary counts errors and warnings, singular and plural", () => {
  const error = { severity: "error" }, warning = { severity: "warning" };
  assert.deepEqual(diagnosticsSummary([]), { text: "No problems.", errors: 0 });
  assert.deepEqual(diagnosticsSummary([warning]), { text: "No errors; 1 warning", errors: 0 });
  assert.deepEqual(diagnosticsSummary([warning, warning]), { text: "No errors; 2 warnings", errors: 0 });
  assert.deepEqual(diagnosticsSummary([error]), { text: "1 error, 0 warnings", errors: 1 });
  assert.deepEqual(diagnosticsSummary([error, error, warning]), { text: "2 errors, 1 warning", errors: 2 });
});
