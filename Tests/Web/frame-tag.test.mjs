// The frame tag (media/frame-tag.js): the band of blocks a browser publisher draws under each
// picture, read back from decoded frames by its sender transform and by viewers.
import assert from "node:assert/strict";
import { test } from "node:test";
import { bandRows, blockSpan, likelyBands, readTagFromBytes, tagBits, tagRows, writeTag } from "../../Sources/ARVisServer/Web/Files/media/frame-tag.js";

/// A luma plane `width` wide holding `rows` rows of picture and then the band of `counter`,
/// each block's level passed through `level(bit, index)`.
function plane(counter, width, rows, level = (bit) => bit ? 235 : 16) {
  const stride = width + 8, bytes = new Uint8Array(stride * (rows + tagRows)).fill(128);
  tagBits(counter).forEach((bit, index) => {
    const [x0, x1] = blockSpan(index, width);
    for (let y = rows; y < rows + tagRows; y++) for (let x = x0; x < x1; x++) bytes[y * stride + x] = level(bit, index);
  });
  return { bytes, stride, top: rows };
}

test("a counter drawn in the band reads back, at the sizes publishers send", () => {
  for (const [counter, width] of [[0, 640], [1, 640], [0xffffff, 1280], [123456, 320], [7, 352]]) {
    const { bytes, stride, top } = plane(counter, width, 48);
    assert.equal(readTagFromBytes(bytes, { width, stride, top }), counter);
  }
});

test("counters wrap at 24 bits", () => {
  assert.deepEqual(tagBits(0x1000005), tagBits(5));
});

test("a band that is not there, or is damaged, reads as no counter", () => {
  const width = 640, { bytes, stride, top } = plane(99, width, 48);
  assert.equal(readTagFromBytes(new Uint8Array(bytes.length).fill(128), { width, stride, top }), null, "a grey picture");
  assert.equal(readTagFromBytes(new Uint8Array(bytes.length), { width, stride, top }), null, "black: the check fails");
  const flipped = plane(99, width, 48, (bit, index) => (index === 3 ? !bit : bit) ? 235 : 16);
  assert.equal(readTagFromBytes(flipped.bytes, { width, stride, top }), null, "one bit flipped");
  const blurred = plane(99, width, 48, (bit) => bit ? 150 : 100);
  assert.equal(readTagFromBytes(blurred.bytes, { width, stride, top }), null, "levels that are neither black nor white");
});

test("RGBA rows read through their green channel", () => {
  const width = 64, luma = plane(4242, width, 0), rgba = new Uint8Array(width * 4 * tagRows);
  for (let y = 0; y < tagRows; y++) for (let x = 0; x < width; x++) rgba.fill(luma.bytes[y * luma.stride + x], (y * width + x) * 4, (y * width + x) * 4 + 4);
  assert.equal(readTagFromBytes(rgba, { width, stride: width * 4, top: 0, channels: 4 }), 4242);
});

test("a band scaled down with its frame reads back at its scaled height", () => {
  // A 640 × 480 picture sent with its 16-row band, scaled by the encoder to 320 × 248: 8 rows.
  const rows = bandRows(248, 480);
  assert.equal(rows, 8);
  assert.deepEqual(likelyBands(248), [16, 12, 8, 4]);
  const width = 320, stride = width, bytes = new Uint8Array(stride * rows).fill(128);
  tagBits(777).forEach((bit, index) => {
    const [x0, x1] = blockSpan(index, width);
    for (let y = 0; y < rows; y++) for (let x = x0; x < x1; x++) bytes[y * stride + x] = bit ? 255 : 0;
  });
  assert.equal(readTagFromBytes(bytes, { width, stride, top: 0, rows }), 777);
});

test("a band written into a luma plane reads back", () => {
  const width = 640, stride = 640, bytes = new Uint8Array(stride * (480 + tagRows)).fill(128);
  writeTag(bytes, 123457, { width, stride, top: 480 });
  assert.equal(readTagFromBytes(bytes, { width, stride, top: 480 }), 123457);
  assert.ok(bytes.slice(0, stride * 480).every((value) => value === 128), "the picture above is left alone");
});
