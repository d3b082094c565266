// Where the caret is in a spec's JSON or YAML (studio/code/caret.js): the key path, whether a key
// or a value goes there, and the word typed so far.
import assert from "node:assert/strict";
import { test } from "node:test";
import { caretPlace, jsonPlace, yamlPlace } from "../../Sources/ARVisServer/Web/Files/studio/code/caret.js";

/// The place at the "|" in `marked` (the bar removed).
const at = (place, marked) => place(marked.replace("|", ""), marked.indexOf("|"));

test("JSON: nothing to complete outside an object or array", () => {
  assert.equal(jsonPlace("", 0), null);
  assert.equal(at(jsonPlace, "|{}"), null);
  assert.equal(at(jsonPlace, "{}|"), null);
  assert.equal(at(jsonPlace, "  tr|"), null);
});

test("JSON: a key typed at the top level, unquoted and quoted", () => {
  assert.deepEqual(at(jsonPlace, "{|"), { path: [], key: true, prefix: "", start: 1, quoted: false });
  assert.deepEqual(at(jsonPlace, "{\n  ima|"), { path: [], key: true, prefix: "ima", start: 4, quoted: false });
  assert.deepEqual(at(jsonPlace, '{\n  "ima|'), { path: [], key: true, prefix: "ima", start: 4, quoted: true });
  assert.deepEqual(at(jsonPlace, '{"a": 1, "|'), { path: [], key: true, prefix: "", start: 9, quoted: true });
});

test("JSON: the caret at the end of the check_studio text is a key of the first target", () => {
  const text = '{\n  "imageTrackingConfigurations": [\n    {\n      "phys';
  assert.deepEqual(jsonPlace(text, text.length), { path: ["imageTrackingConfigurations", 0], key: true, prefix: "phys", start: 49, quoted: true });
});

test("JSON: array indices count the commas of the array the caret is in", () => {
  assert.deepEqual(at(jsonPlace, '{"a": [{}, {}, {"|'), { path: ["a", 2], key: true, prefix: "", start: 16, quoted: true });
  assert.deepEqual(at(jsonPlace, '{"a": [[1, 2], [|'), { path: ["a", 1, 0], key: false, prefix: "", start: 16, quoted: false });
  assert.deepEqual(at(jsonPlace, '{"a": ["x", "y", "|'), { path: ["a", 2], key: false, prefix: "", start: 17, quoted: true });
});

test("JSON: a value after its key's colon, bare or quoted", () => {
  assert.deepEqual(at(jsonPlace, '{"relativeAnchorPoint": "to|'),
    { path: ["relativeAnchorPoint"], key: false, prefix: "to", start: 24, quoted: true });
  assert.deepEqual(at(jsonPlace, '{"w": {"visible": tr|'), { path: ["w", "visible"], key: false, prefix: "tr", start: 18, quoted: false });
  assert.deepEqual(at(jsonPlace, '{"w": |'), { path: ["w"], key: false, prefix: "", start: 6, quoted: false });
});

test("JSON: closed containers and strings holding brackets, commas and escaped quotes are passed over", () => {
  assert.deepEqual(at(jsonPlace, '{"a": {"b": [1, {"c": 2}]}, "d": {"e": "x}],\\"{", |'),
    { path: ["d"], key: true, prefix: "", start: 50, quoted: false });
  assert.deepEqual(at(jsonPlace, '{"a": {"b": 1}, |'), { path: [], key: true, prefix: "", start: 16, quoted: false });
});

test("JSON: offsets count UTF-16 code units, as the textarea's selection does", () => {
  // "é" is one code unit, "😀" two: the key after them starts where the textarea says.
  const text = '{"titre": "été 😀", "';
  assert.equal(text.length, 21);
  assert.deepEqual(jsonPlace(text, text.length), { path: [], key: true, prefix: "", start: 20, quoted: true });
  assert.deepEqual(at(jsonPlace, '{"é|'), { path: [], key: true, prefix: "é", start: 1, quoted: true });
  // Outside quotes, the typed word is ASCII letters, digits and _$.-: a non-ASCII letter ends it.
  assert.deepEqual(at(jsonPlace, "{\n  éa|"), { path: [], key: true, prefix: "a", start: 5, quoted: false });
});

test("JSON: a caret in the middle of a text reads only what is before it", () => {
  const text = '{"a": [{"b": 1}], "c": {}}';
  assert.deepEqual(jsonPlace(text, text.indexOf('"b"') + 2), { path: ["a", 0], key: true, prefix: "b", start: 8, quoted: true });
  assert.equal(jsonPlace(text, text.length), null);
});

test("YAML: a key typed at the top level, or a line that is neither key nor value", () => {
  assert.deepEqual(yamlPlace("", 0), { path: [], key: true, prefix: "", start: 0, quoted: false });
  assert.deepEqual(at(yamlPlace, "ima|"), { path: [], key: true, prefix: "ima", start: 0, quoted: false });
  assert.equal(at(yamlPlace, "title: two words|"), null);
  assert.equal(at(yamlPlace, "# a comm|"), null);
});

test("YAML: nested keys come from the lines above with less indentation", () => {
  const text = "imageTrackingConfigurations:\n  - imageURL: x\n    relationships:\n      - widgetConfiguration:\n          relativeAnchorPoint: t";
  assert.deepEqual(yamlPlace(text, text.length), {
    path: ["imageTrackingConfigurations", 0, "relationships", 0, "widgetConfiguration", "relativeAnchorPoint"],
    key: false, prefix: "t", start: text.length - 1, quoted: false,
  });
  const key = "imageTrackingConfigurations:\n  - imageURL: x\n    phys";
  assert.deepEqual(yamlPlace(key, key.length), { path: ["imageTrackingConfigurations", 0], key: true, prefix: "phys", start: key.length - 4, quoted: false });
});

test("YAML: a key on a list item's dash line is inside the item", () => {
  const first = "imageTrackingConfigurations:\n  - phys";
  assert.deepEqual(yamlPlace(first, first.length), { path: ["imageTrackingConfigurations", 0], key: true, prefix: "phys", start: first.length - 4, quoted: false });
  const empty = "imageTrackingConfigurations:\n  - ";
  assert.deepEqual(yamlPlace(empty, empty.length), { path: ["imageTrackingConfigurations", 0], key: true, prefix: "", start: empty.length, quoted: false });
  const value = "relationships:\n  - relativeAnchorPoint: to";
  assert.deepEqual(yamlPlace(value, value.length), { path: ["relationships", 0, "relativeAnchorPoint"], key: false, prefix: "to", start: value.length - 2, quoted: false });
  // A later item: its siblings above are not its container.
  const later = "items:\n  - name: a\n    sub:\n      - x\n  - na";
  assert.deepEqual(yamlPlace(later, later.length), { path: ["items", 0], key: true, prefix: "na", start: later.length - 2, quoted: false });
});

test("YAML: blank lines, comments and deeper siblings above do not change the path", () => {
  const text = "a:\n  b:\n    c: 1\n\n  # note\n    # indented note\n  d|";
  assert.deepEqual(at(yamlPlace, text), { path: ["a"], key: true, prefix: "d", start: text.indexOf("|") - 1, quoted: false });
});

test("YAML: quoted keys are unquoted in the path", () => {
  const text = "\"style\":\n  'colour': re|";
  assert.deepEqual(at(yamlPlace, text), { path: ["style", "colour"], key: false, prefix: "re", start: text.indexOf("|") - 2, quoted: false });
});

test("YAML: an empty value after the colon, the caret at the end of the text", () => {
  const text = "a:\n  visible: ";
  assert.deepEqual(yamlPlace(text, text.length), { path: ["a", "visible"], key: false, prefix: "", start: text.length, quoted: false });
});

test("YAML: unicode before the caret moves offsets by UTF-16 code units", () => {
  const text = "titre: \"été 😀\"\nsty";
  assert.deepEqual(yamlPlace(text, text.length), { path: [], key: true, prefix: "sty", start: text.length - 3, quoted: false });
  assert.equal(text.length - 3, 16);
});

test("caretPlace picks the reader by format", () => {
  assert.deepEqual(caretPlace("{", 1, false), jsonPlace("{", 1));
  assert.deepEqual(caretPlace("a:\n  b", 6, true), { path: ["a"], key: true, prefix: "b", start: 5, quoted: false });
  assert.equal(caretPlace("a:\n  b", 6, false), null);
});
