// Offsets in a text and the did-you-mean fixes of diagnostics. Pure.

/// The offset of line `line`, column `column` (both from 1; in UTF-16 code units, as the textarea
/// counts), clamped to the last line.
export function offsetOf(text, line, column) {
  const lines = text.split("\n");
  let offset = 0;
  for (let n = 0; n < Math.min(line - 1, lines.length); n++) offset += lines[n].length + 1;
  return offset + Math.max(0, column - 1);
}

/// The suggestion of a diagnostic's "did you mean 'X'?" hint, or null.
export function fixOf(diagnostic) {
  const match = /did you mean '([^']+)'\?/.exec(diagnostic.hint || "");
  return match ? match[1] : null;
}

/// The range [from, to] a fix replaces at offset `start` of `text`: inside the string that starts
/// there, or the bare word; null where there is none.
export function fixRange(text, start) {
  let from = start, to;
  if (text[start] === "\"") { from = start + 1; to = text.indexOf("\"", from); } else {
    const word = /^[^\s,:{}[\]"']+/.exec(text.slice(start));
    if (!word) return null;
    to = start + word[0].length;
  }
  return to < from ? null : [from, to];
}
