// Where the caret is in a spec's text, for completion: the key path of the container it is in
// (object keys and array indices from the root), whether a key or a value goes there, and the
// word typed so far. Pure.
//
// A place is {path, key, prefix, start, quoted}: `start` is the offset the typed word starts at
// (its opening quote when `quoted`).

/// The place at `offset` in JSON or YAML `text`, or null where nothing can be completed.
export const caretPlace = (text, offset, yaml) => (yaml ? yamlPlace : jsonPlace)(text, offset);

/// The place at `offset` in JSON text, read from the start: null outside any object or array.
export function jsonPlace(text, offset) {
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
    else if (c === "}" || c === "]") { stack.pop(); lastKey = null; expectKey = false; }
    else if (c === ",") { const top = stack[stack.length - 1]; if (top && top.kind === "array") top.index++; if (top && top.kind === "object") { expectKey = true; lastKey = null; } }
    else if (c === ":") expectKey = false;
    i++;
  }
  if (!stack.length) return null;
  const top = stack[stack.length - 1];
  const word = /[A-Za-z0-9_$.-]*$/.exec(text.slice(0, offset))[0];
  return { path: pathOf(stack, top.kind === "object" && !expectKey ? lastKey : null), key: top.kind === "object" && expectKey, prefix: word, start: offset - word.length, quoted: false };
}

/// The key path of the innermost container of `stack`, and `valueKey` after it when a value of
/// that key is being written.
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

const unquote = (key) => key.replace(/^["']|["']$/g, "");

/// The place at `offset` in YAML text, from the keys of the lines above with less indentation
/// (a "- " item counts as index 0, the caret's own line's too): null where the line is neither a
/// key being typed nor a key's value.
export function yamlPlace(text, offset) {
  const lines = text.slice(0, offset).split("\n");
  const current = lines.pop();
  const keyMatch = /^(\s*)(-\s+)?([A-Za-z0-9_$.-]*)$/.exec(current);
  const valueMatch = /^(\s*)(-\s+)?([A-Za-z0-9_$."'-]+)\s*:\s*([A-Za-z0-9_.-]*)$/.exec(current);
  const match = keyMatch || valueMatch;
  // The container is on the nearest line above indented less than this one (than its dash, for
  // an item of a list).
  let indent = match ? match[1].length : 0;
  const path = [];
  for (let n = lines.length - 1; n >= 0 && indent > 0; n--) {
    const line = lines[n];
    if (!line.trim() || /^\s*#/.test(line)) continue;
    const own = /^(\s*)(-\s+)?(?:([^\s:#][^:#]*?)\s*:)?/.exec(line);
    const lineIndent = own[1].length;
    const dashIndent = lineIndent + (own[2] || "").length;
    if (own[2] && lineIndent < indent) {
      if (dashIndent < indent && own[3]) path.unshift(unquote(own[3]));
      path.unshift(0);
      indent = lineIndent;
    } else if (lineIndent < indent && own[3]) { path.unshift(unquote(own[3])); indent = lineIndent; }
  }
  if (match && match[2]) path.push(0);
  if (valueMatch) {
    path.push(unquote(valueMatch[3]));
    return { path, key: false, prefix: valueMatch[4], start: offset - valueMatch[4].length, quoted: false };
  }
  if (keyMatch) return { path, key: true, prefix: keyMatch[3], start: offset - keyMatch[3].length, quoted: false };
  return null;
}
