// Colouring of JSON and YAML, one line at a time, as HTML spans (key, str, num, kw, punct,
// comment); the token a diagnostic points at underlined. Pure: the text is escaped, never
// trusted as HTML.

/// `text` with &, < and > escaped.
export const escapeHTML = (text) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

const jsonToken = /("(?:[^"\\]|\\.)*"?)(\s*:)?|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|\b(true|false|null)\b|([{}[\],])/g;
const yamlKey = /^(\s*(?:-\s+)*)((?:"[^"]*"|'[^']*'|[^\s#:'"-][^:#]*?)\s*:)(?=\s|$)/;

/// A line of JSON coloured.
export function colourJSON(line) {
  let out = "", last = 0;
  for (const match of line.matchAll(jsonToken)) {
    out += escapeHTML(line.slice(last, match.index));
    const [text, string, colon, number, keyword] = match;
    const kind = string !== undefined ? (colon ? "key" : "str") : number !== undefined ? "num" : keyword !== undefined ? "kw" : "punct";
    out += colon ? "<span class=\"key\">" + escapeHTML(string) + "</span>" + escapeHTML(colon) : "<span class=\"" + kind + "\">" + escapeHTML(text) + "</span>";
    last = match.index + text.length;
  }
  return out + escapeHTML(line.slice(last));
}

/// A line of YAML coloured: its key, its value, its comment.
export function colourYAML(line) {
  const comment = line.search(/(^|\s)#/);
  const body = comment >= 0 ? line.slice(0, comment) : line, rest = comment >= 0 ? line.slice(comment) : "";
  const match = body.match(yamlKey);
  let out;
  if (match) {
    const value = body.slice(match[0].length);
    out = escapeHTML(match[1]) + "<span class=\"key\">" + escapeHTML(match[2]) + "</span>" + colourValue(value);
  } else out = colourValue(body);
  return out + (rest ? "<span class=\"comment\">" + escapeHTML(rest) + "</span>" : "");
}

/// A YAML value coloured: a keyword, number or quoted string, else as JSON (flow collections).
function colourValue(text) {
  const trimmed = text.trim();
  if (/^(true|false|null|~)$/.test(trimmed)) return text.replace(trimmed, "<span class=\"kw\">" + trimmed + "</span>");
  if (/^-?\d+(\.\d+)?$/.test(trimmed)) return text.replace(trimmed, "<span class=\"num\">" + trimmed + "</span>");
  if (/^["']/.test(trimmed)) return escapeHTML(text).replace(escapeHTML(trimmed), "<span class=\"str\">" + escapeHTML(trimmed) + "</span>");
  return colourJSON(text);
}

/// The HTML of `line` coloured, with the token at `column` (1-based) underlined when given.
export function colourLine(line, yaml, column) {
  const colour = yaml ? colourYAML : colourJSON;
  if (!column) return colour(line);
  const start = Math.min(column - 1, line.length);
  let end;
  if (line[start] === "\"") { end = line.indexOf("\"", start + 1) + 1 || line.length; } else {
    const word = /^[^\s,:{}[\]]+/.exec(line.slice(start));
    end = start + (word ? word[0].length : 1);
  }
  end = Math.max(end, start + 1);
  return colour(line.slice(0, start)) + "<mark class=\"squiggle\">" + escapeHTML(line.slice(start, end) || " ") + "</mark>" + colour(line.slice(end));
}
