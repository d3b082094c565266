// Line diffs (studio/code/diff.js): Myers' algorithm as the versions and conflict panels show it.
import assert from "node:assert/strict";
import { test } from "node:test";
import { diffCounts, diffLimit, diffLines, foldDiff } from "../../Sources/ARVisServer/Web/Files/studio/code/diff.js";

/// The two texts a diff was made from: its " " and "-" lines, and its " " and "+" lines.
const sides = (lines) => [lines.filter((l) => l[0] !== "+").map((l) => l[1]).join("\n"), lines.filter((l) => l[0] !== "-").map((l) => l[1]).join("\n")];

/// The length of the longest common subsequence of two line lists (dynamic programming).
function lcs(x, y) {
  const table = Array.from({ length: x.length + 1 }, () => new Array(y.length + 1).fill(0));
  for (let i = 1; i <= x.length; i++) for (let j = 1; j <= y.length; j++) {
    table[i][j] = x[i - 1] === y[j - 1] ? table[i - 1][j - 1] + 1 : Math.max(table[i - 1][j], table[i][j - 1]);
  }
  return table[x.length][y.length];
}

/// A deterministic pseudo-random generator (mulberry32), so a failure can be replayed.
function random(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

test("identical texts are all context", () => {
  assert.deepEqual(diffLines("a\nb", "a\nb"), [[" ", "a"], [" ", "b"]]);
  assert.deepEqual(diffLines("", ""), [[" ", ""]], "an empty text is one empty line");
});

test("from and to an empty text", () => {
  assert.deepEqual(diffLines("", "a\nb"), [["-", ""], ["+", "a"], ["+", "b"]]);
  assert.deepEqual(diffLines("a\nb", ""), [["-", "a"], ["-", "b"], ["+", ""]]);
});

test("one line inserted, removed and changed", () => {
  assert.deepEqual(diffLines("a\nc", "a\nb\nc"), [[" ", "a"], ["+", "b"], [" ", "c"]]);
  assert.deepEqual(diffLines("a\nb\nc", "a\nc"), [[" ", "a"], ["-", "b"], [" ", "c"]]);
  assert.deepEqual(diffLines("a\nb\nc", "a\nB\nc"), [[" ", "a"], ["-", "b"], ["+", "B"], [" ", "c"]]);
});

test("a trailing newline is a last empty line", () => {
  assert.deepEqual(diffLines("a", "a\n"), [[" ", "a"], ["+", ""]]);
});

test("unicode lines compare by their exact text", () => {
  assert.deepEqual(diffLines("café\n😀\nnaïve", "café\n😀\nnaive"), [[" ", "café"], [" ", "😀"], ["-", "naïve"], ["+", "naive"]]);
  // "é" precomposed and "e" + combining accent look alike but differ.
  assert.deepEqual(diffLines("\u00e9", "e\u0301"), [["-", "\u00e9"], ["+", "e\u0301"]]);
});

test("the diff rebuilds both texts and keeps a longest common subsequence (random texts)", () => {
  const next = random(7);
  for (let round = 0; round < 300; round++) {
    const line = () => "abcde"[Math.floor(next() * 5)];
    const a = Array.from({ length: Math.floor(next() * 12) }, line).join("\n");
    const b = Array.from({ length: Math.floor(next() * 12) }, line).join("\n");
    const lines = diffLines(a, b);
    assert.deepEqual(sides(lines), [a, b], JSON.stringify({ a, b }));
    assert.equal(lines.filter((l) => l[0] === " ").length, lcs(a.split("\n"), b.split("\n")), JSON.stringify({ a, b }));
  }
});

test("texts that differ by more than the limit are not diffed", () => {
  const many = (prefix, count) => Array.from({ length: count }, (_, index) => prefix + index).join("\n");
  assert.equal(diffLines(many("a", 3), many("b", 3), 5), null);
  assert.equal(diffLines(many("a", 3), many("b", 3), 6).length, 6);
  assert.equal(diffLimit, 2000);
  assert.equal(diffLines(many("a", 1001), many("b", 1001)), null, "2002 edits are past the default limit");
});

test("folding keeps three lines around each change and counts the rest", () => {
  const a = Array.from({ length: 20 }, (_, index) => "line " + index).join("\n");
  const b = a.replace("line 10", "line ten");
  assert.deepEqual(foldDiff(diffLines(a, b)), [
    { kind: "skip", count: 7 },
    { kind: " ", text: "line 7" }, { kind: " ", text: "line 8" }, { kind: " ", text: "line 9" },
    { kind: "-", text: "line 10" }, { kind: "+", text: "line ten" },
    { kind: " ", text: "line 11" }, { kind: " ", text: "line 12" }, { kind: " ", text: "line 13" },
    { kind: "skip", count: 6 },
  ]);
});

test("folding with no change is one skip; changes at the edges leave no skip before or after", () => {
  assert.deepEqual(foldDiff(diffLines("a\nb", "a\nb")), [{ kind: "skip", count: 2 }]);
  assert.deepEqual(foldDiff([]), []);
  assert.deepEqual(foldDiff(diffLines("x\n1\n2\n3\n4", "y\n1\n2\n3\n4")),
    [{ kind: "-", text: "x" }, { kind: "+", text: "y" }, { kind: " ", text: "1" }, { kind: " ", text: "2" }, { kind: " ", text: "3" }, { kind: "skip", count: 1 }]);
  assert.deepEqual(foldDiff(diffLines("a\nb", "a\nc"), 0), [{ kind: "skip", count: 1 }, { kind: "-", text: "b" }, { kind: "+", text: "c" }]);
});

test("counts of added and removed lines", () => {
  assert.deepEqual(diffCounts(diffLines("a\nb\nc", "a\nB\nc\nd")), { added: 2, removed: 1 });
  assert.deepEqual(diffCounts(diffLines("same", "same")), { added: 0, removed: 0 });
});
