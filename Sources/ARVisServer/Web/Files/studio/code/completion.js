// Completion from the spec's JSON Schema (/schema.json, `arvis schema`): the keys that may go
// where the caret is, or the values (enums, consts, booleans). Pure: the schema is passed in.

import { caretPlace } from "./caret.js";

/// The most completions offered at once.
export const completionLimit = 60;

/// `node` with its $ref followed (to the root's $defs), or {} for none.
export function resolve(root, node) {
  let guard = 0;
  while (node && node.$ref && guard++ < 32) node = root.$defs[node.$ref.replace("#/$defs/", "")];
  return node || {};
}

/// `node` and every branch of its oneOf, anyOf and allOf, resolved (8 levels at most).
export function expand(root, node, depth) {
  node = resolve(root, node);
  if ((depth || 0) > 8) return [node];
  const branches = [].concat(node.oneOf || [], node.anyOf || [], node.allOf || []);
  return branches.length ? [node, ...branches.flatMap((branch) => expand(root, branch, (depth || 0) + 1))] : [node];
}

/// The schema nodes a key path may lead to (every branch of oneOf/anyOf/allOf): numbers step
/// into items, strings into properties (or additionalProperties).
export function nodesAt(root, path) {
  let nodes = expand(root, root);
  for (const step of path) {
    const next = [];
    for (const node of nodes) {
      if (typeof step === "number") {
        if (node.items) next.push(...expand(root, node.items));
        if (node.prefixItems) next.push(...node.prefixItems.flatMap((item) => expand(root, item)));
      } else if (node.properties && node.properties[step]) next.push(...expand(root, node.properties[step]));
      else if (node.additionalProperties && typeof node.additionalProperties === "object") next.push(...expand(root, node.additionalProperties));
    }
    nodes = next;
    if (!nodes.length) break;
  }
  return nodes;
}

/// The completions for `place` (caret.js) under schema `root`: [{label, value?, detail}] that
/// start with the typed word (ignoring case), sorted by label, at most `completionLimit`. Keys
/// have no `value`; values are written as their `value` (YAML, quoted JSON) or `label` (JSON).
export function completionsFor(root, place) {
  const seen = new Map();
  for (const node of nodesAt(root, place.path)) {
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
  return items.sort((a, b) => a.label.localeCompare(b.label)).slice(0, completionLimit);
}

/// The completions at `offset` in `text` under schema `root`: {items, place}; no items where
/// nothing can be completed (place null).
export function completions(root, text, offset, yaml) {
  const place = caretPlace(text, offset, yaml);
  return { items: place ? completionsFor(root, place) : [], place };
}

/// The text that accepting `item` at `place` writes: a key with its colon (quoted in JSON), or a
/// value (closing the quote the author opened).
export function insertionOf(item, place, yaml) {
  if (place.key) return yaml ? item.label + ": " : (place.quoted ? item.label + "\": " : "\"" + item.label + "\": ");
  return yaml ? String(item.value) : (place.quoted ? String(item.value) + "\"" : item.label);
}

/// The range [from, to] of `text` that accepting a completion at `place` replaces, the caret being
/// at `offset`: the typed word (inside its quotes), and the closing quote when it follows.
export function replacedRange(place, text, offset) {
  return [place.quoted ? place.start + 1 : place.start, place.quoted && text[offset] === "\"" ? offset + 1 : offset];
}
