// Line diffs (versions, conflicts): Myers' O(ND) algorithm, and the diff folded to its changes
// with a few lines of context. Pure.

/// The most edits a diff looks for before giving up (two texts that differ more are not shown
/// line by line).
export const diffLimit = 2000;

/// The lines of `a` and `b` as [kind, text] with kind " " (in both), "-" (only in a) or "+" (only
/// in b), in order; null when they differ by more than `limit` lines.
export function diffLines(a, b, limit = diffLimit) {
  const x = a.split("\n"), y = b.split("\n");
  const n = x.length, m = y.length, max = n + m;
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
}

/// A diff's rows with unchanged runs folded: each line within `context` lines of a change as
/// {kind, text}, each run of other lines as {kind: "skip", count}.
export function foldDiff(lines, context = 3) {
  const changed = lines.map((line) => line[0] !== " ");
  const rows = [];
  let skipped = 0;
  lines.forEach((line, index) => {
    if (!changed.slice(Math.max(0, index - context), index + context + 1).some(Boolean)) { skipped++; return; }
    if (skipped) { rows.push({ kind: "skip", count: skipped }); skipped = 0; }
    rows.push({ kind: line[0], text: line[1] });
  });
  if (skipped) rows.push({ kind: "skip", count: skipped });
  return rows;
}

/// How many lines a diff adds and removes.
export const diffCounts = (lines) => ({ added: lines.filter((line) => line[0] === "+").length, removed: lines.filter((line) => line[0] === "-").length });
