// The XR camera's colour conversion (xr/xr-camera.js): RGBA rows to I420 planes, BT.601 limited range.
import assert from "node:assert/strict";
import { test } from "node:test";
import { rgbaToI420 } from "../../Sources/ARVisServer/Web/Files/xr/xr-camera.js";

test("black, white and the primaries convert to BT.601's limited-range values", () => {
  const colours = { black: [0, 0, 0, 16, 128, 128], white: [255, 255, 255, 235, 128, 128], red: [255, 0, 0, 81, 90, 240],
    green: [0, 255, 0, 145, 54, 34], blue: [0, 0, 255, 41, 240, 110] };
  for (const [name, [r, g, b, y, u, v]] of Object.entries(colours)) {
    const rgba = new Uint8Array(2 * 2 * 4);
    for (let p = 0; p < rgba.length; p += 4) rgba.set([r, g, b, 255], p);
    const out = rgbaToI420(rgba, 2, 2, new Uint8Array(6));
    for (const [plane, got, want] of [["Y", out[0], y], ["U", out[4], u], ["V", out[5], v]]) {
      assert.ok(Math.abs(got - want) <= 1, `${name} ${plane}: ${got}, not ${want}`);
    }
  }
});

test("chroma is the average of each 2 × 2 block, and the planes follow each other", () => {
  const width = 4, height = 2, rgba = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) rgba.set(x < 2 ? [255, 255, 255, 255] : [0, 0, 255, 255], (y * width + x) * 4);
  const out = rgbaToI420(rgba, width, height, new Uint8Array(12));
  assert.deepEqual([...out.slice(0, 8)], [235, 235, 41, 41, 235, 235, 41, 41]);
  assert.deepEqual([...out.slice(8, 10)], [128, 240], "U of the white block, then the blue one");
  assert.deepEqual([...out.slice(10, 12)], [128, 110], "then V");
});
