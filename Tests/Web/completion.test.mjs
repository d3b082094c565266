// Completion from the spec's JSON Schema (studio/code/completion.js), on a schema shaped as
// `arvis schema` writes it: a root anyOf of $refs into $defs, described properties, enums, oneOf
// alternatives, tuples (prefixItems), maps (additionalProperties) and booleans.
import assert from "node:assert/strict";
import { test } from "node:test";
import { completionLimit, completions, completionsFor, expand, insertionOf, nodesAt, replacedRange, resolve }
  from "../../Sources/ARVisServer/Web/Files/studio/code/completion.js";

const schema = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  anyOf: [{ $ref: "#/$defs/Environment" }, { $ref: "#/$defs/Component" }],
  $defs: {
    Environment: { type: "object", properties: {
      imageTrackingConfigurations: { type: "array", items: { $ref: "#/$defs/ImageTarget" } },
      version: { description: "The spec's version.", type: "integer" },
    } },
    ImageTarget: { type: "object", properties: {
      imageURL: { type: "string", format: "uri" },
      physicalWidth: { description: "Width in metres.", type: "number" },
      physicalHeight: { type: "number" },
      relationships: { type: "array", items: { $ref: "#/$defs/Relationship" } },
    } },
    Relationship: { type: "object", properties: {
      relativeAnchorPoint: { $ref: "#/$defs/Anchor" },
      relativePosition: { description: "x, y, z", type: "array", prefixItems: [{ type: "number" }, { type: "number" }, { type: "number" }], items: false },
      widgetConfiguration: { $ref: "#/$defs/Widget" },
    } },
    Anchor: { description: "Where the widget attaches.", type: "string", enum: ["top", "bottom", "leading", "trailing", "center"] },
    Widget: { type: "object", properties: { component: { $ref: "#/$defs/Component" }, visible: { type: "boolean" }, style: { type: "object", additionalProperties: { $ref: "#/$defs/Colour" } } } },
    Colour: { oneOf: [{ type: "string", enum: ["red", "green"] }, { const: "auto" }] },
    Component: { oneOf: [
      { type: "object", properties: { text: { $ref: "#/$defs/Text" } } },
      { type: "object", properties: { vStack: { type: "object" }, text: { description: "A second text branch", type: "object" } } },
    ] },
    Text: { description: "A text component.", type: "object", properties: { content: { type: "string" } } },
  },
};

const labels = (result) => result.items.map((item) => item.label);
/// The completions at the "|" in `marked`.
const at = (marked, yaml = false) => completions(schema, marked.replace("|", ""), marked.indexOf("|"), yaml);

test("resolve follows $ref chains to $defs and gives {} for nothing", () => {
  assert.equal(resolve(schema, { $ref: "#/$defs/Text" }), schema.$defs.Text);
  assert.deepEqual(resolve(schema, undefined), {});
  const looping = { $defs: { A: { $ref: "#/$defs/B" }, B: { $ref: "#/$defs/A" } } };
  assert.deepEqual(resolve(looping, { $ref: "#/$defs/A" }), { $ref: "#/$defs/A" }, "a cycle of refs stops after 32 steps");
});

test("expand lists a node and every branch of its anyOf and oneOf", () => {
  assert.deepEqual(expand(schema, schema).length, 5);  // the root, Environment, Component and its two branches
  assert.deepEqual(nodesAt(schema, ["imageTrackingConfigurations", 0]), [schema.$defs.ImageTarget]);
  assert.deepEqual(nodesAt(schema, ["nothing", "here"]), []);
  assert.deepEqual(nodesAt(schema, ["style"]), [], "style is a key of widgets, not of the root");
});

test("keys at the root: every kind's keys, sorted, with their descriptions", () => {
  const result = at("{|");
  assert.deepEqual(labels(result), ["imageTrackingConfigurations", "text", "version", "vStack"]);
  assert.equal(result.items.find((item) => item.label === "version").detail, "The spec's version.");
  assert.equal(result.items.find((item) => item.label === "text").detail, "A text component.", "the first branch to name a key describes it");
  assert.equal(result.items.every((item) => item.value === undefined), true);
});

test("keys filtered by the typed prefix, ignoring case", () => {
  assert.deepEqual(labels(at('{\n  "imageTrackingConfigurations": [\n    {\n      "phys|')), ["physicalHeight", "physicalWidth"]);
  assert.deepEqual(labels(at('{"imageTrackingConfigurations": [{"PHYSICALw|')), ["physicalWidth"]);
  assert.deepEqual(labels(at('{"imageTrackingConfigurations": [{"zz|')), []);
});

test("values: an enum's members as JSON, filtered by what is typed", () => {
  const result = at('{"imageTrackingConfigurations": [{"relationships": [{"relativeAnchorPoint": "t|');
  assert.deepEqual(result.items, [
    { label: '"top"', value: "top", detail: "Where the widget attaches." },
    { label: '"trailing"', value: "trailing", detail: "Where the widget attaches." },
  ]);
});

test("values: booleans, and a map's values through oneOf with a const", () => {
  assert.deepEqual(labels(at('{"imageTrackingConfigurations": [{"relationships": [{"widgetConfiguration": {"visible": |')), ["false", "true"]);
  const colours = at('{"imageTrackingConfigurations": [{"relationships": [{"widgetConfiguration": {"style": {"border": "|');
  assert.deepEqual(colours.items.map((item) => item.value), ["auto", "green", "red"]);
});

test("values: tuple items step into prefixItems (numbers have nothing to offer)", () => {
  assert.deepEqual(nodesAt(schema, ["imageTrackingConfigurations", 0, "relationships", 0, "relativePosition", 1]), [{ type: "number" }, { type: "number" }, { type: "number" }]);
  assert.deepEqual(labels(at('{"imageTrackingConfigurations": [{"relationships": [{"relativePosition": [0, |')), []);
});

test("YAML: keys and values at nested places", () => {
  assert.deepEqual(labels(at("imageTrackingConfigurations:\n  - imageURL: x\n    rel|", true)), ["relationships"]);
  assert.deepEqual(at("imageTrackingConfigurations:\n  - relationships:\n      - relativeAnchorPoint: b|", true).items.map((item) => item.value), ["bottom"]);
});

test("nowhere to complete: no items and no place", () => {
  assert.deepEqual(completions(schema, "", 0, false), { items: [], place: null });
  assert.deepEqual(completions(schema, "title: two words", 16, true), { items: [], place: null });
});

test("at most completionLimit items", () => {
  const properties = Object.fromEntries(Array.from({ length: 100 }, (_, index) => ["key" + String(index).padStart(3, "0"), { type: "string" }]));
  const wide = { type: "object", properties };
  const items = completionsFor(wide, { path: [], key: true, prefix: "", start: 0, quoted: false });
  assert.equal(items.length, completionLimit);
  assert.equal(items[0].label, "key000");
  assert.equal(items[completionLimit - 1].label, "key059");
});

test("accepting a key writes it with its colon, quoted in JSON, and replaces what was typed", () => {
  const text = '{\n  "imageTrackingConfigurations": [\n    {\n      "phys';
  const { items, place } = completions(schema, text, text.length, false);
  const chosen = items.find((item) => item.label === "physicalWidth");
  const [from, to] = replacedRange(place, text, text.length);
  assert.deepEqual([from, to], [text.length - 4, text.length]);
  assert.equal(text.slice(0, from) + insertionOf(chosen, place, false) + text.slice(to), '{\n  "imageTrackingConfigurations": [\n    {\n      "physicalWidth": ');
  const bare = { path: [], key: true, prefix: "ve", start: 4, quoted: false };
  assert.equal(insertionOf({ label: "version" }, bare, false), '"version": ');
  assert.equal(insertionOf({ label: "version" }, bare, true), "version: ");
});

test("accepting a value: its JSON label, or its value inside the author's quotes (eating the closing one)", () => {
  const item = { label: '"top"', value: "top" };
  assert.equal(insertionOf(item, { key: false, quoted: false }, false), '"top"');
  assert.equal(insertionOf(item, { key: false, quoted: true }, false), 'top"');
  assert.equal(insertionOf(item, { key: false, quoted: false }, true), "top");
  assert.equal(insertionOf({ label: "true", value: true }, { key: false, quoted: false }, true), "true");
  const text = '{"a": "to"}', place = { key: false, quoted: true, start: 6 };
  assert.deepEqual(replacedRange(place, text, 9), [7, 10], "the closing quote after the caret is replaced too");
  assert.deepEqual(replacedRange(place, '{"a": "to', 9), [7, 9]);
});
