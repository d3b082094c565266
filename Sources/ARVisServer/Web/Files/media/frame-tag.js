// The frame tag: a band of 32 black or white blocks a browser publisher draws under each picture
// it sends — a 24-bit frame counter and an 8-bit check. The publisher's sender transform reads it
// back from the frames it encodes, to attach each one's own metadata (docs/video.md), and a
// viewer reads it to check that a picture and its metadata belong together. Pure.

/// How many rows the band takes under the picture (a macroblock, so it codes cleanly).
export const tagRows = 16;
const blocks = 32, counterBits = 24;

/// The 8-bit check of a 24-bit counter.
const checkOf = (counter) => (counter ^ (counter >>> 8) ^ (counter >>> 16) ^ 0xa5) & 0xff;

/// The 32 bits a counter's band shows, left to right: the counter's 24 (lowest first), then its check.
export function tagBits(counter) {
  const value = counter & 0xffffff, check = checkOf(value);
  return Array.from({ length: blocks }, (_, index) => index < counterBits ? (value >>> index) & 1 : (check >>> (index - counterBits)) & 1);
}

/// Where block `index` of a `width`-wide band starts and ends (x, end exclusive).
export const blockSpan = (index, width) => [Math.floor(index * width / blocks), Math.floor((index + 1) * width / blocks)];

/// Draws the band of `counter` on a 2D context, `width` wide, from row `top`.
export function drawTag(g, counter, width, top) {
  tagBits(counter).forEach((bit, index) => {
    const [x, end] = blockSpan(index, width);
    g.fillStyle = bit ? "#fff" : "#000";
    g.fillRect(x, top, end - x, tagRows);
  });
}

/// Writes the band of `counter` into a luma plane (`bytes`, `stride` bytes a row), `width` wide,
/// from row `top` (from `offset`): black 16 and white 235, as video codes them.
export function writeTag(bytes, counter, { width, stride, top, offset = 0 }) {
  tagBits(counter).forEach((bit, index) => {
    const [x, end] = blockSpan(index, width);
    for (let row = top; row < top + tagRows; row++) bytes.fill(bit ? 235 : 16, offset + row * stride + x, offset + row * stride + end);
  });
}

/// The counter a band shows, or null when it holds none (no band, or a damaged one). `brightness(x0,
/// x1)` is the mean brightness (0…255) of the band's middle rows between columns x0 and x1.
export function readTag(brightness, width) {
  let value = 0, check = 0;
  for (let index = 0; index < blocks; index++) {
    const [x, end] = blockSpan(index, width), margin = Math.floor((end - x) / 4);
    const level = brightness(x + margin, end - margin);
    if (level > 64 && level < 192) return null;
    const bit = level >= 192 ? 1 : 0;
    if (index < counterBits) value |= bit << index; else check |= bit << (index - counterBits);
  }
  return checkOf(value) === check ? value >>> 0 : null;
}

/// How many rows the band takes in a frame `height` rows high that was sent with a picture
/// `sentHeight` rows high (the encoder may scale frames down when the network or the CPU asks).
export const bandRows = (height, sentHeight) => Math.max(2, Math.round(tagRows * height / (sentHeight + tagRows)));

/// The bands a frame `height` rows high may have when the picture's size is unknown: sent whole,
/// or scaled to 3/4, 1/2 or 1/4.
export const likelyBands = (height) => [1, 0.75, 0.5, 0.25].map((scale) => Math.round(tagRows * scale)).filter((rows) => rows < height);

/// `readTag` over one plane of bytes: a luma plane (`channels` 1) or RGBA rows (`channels` 4,
/// brightness from green), `stride` bytes a row, the band's `rows` rows from `top`.
export function readTagFromBytes(bytes, { width, stride, top, rows: band = tagRows, channels = 1, offset = 0 }) {
  const rows = [top + band / 4, top + band / 2, top + 3 * band / 4].map(Math.floor);
  const brightness = (x0, x1) => {
    let sum = 0, count = 0;
    for (const row of rows) for (let x = x0; x < x1; x++) { sum += bytes[offset + row * stride + x * channels + (channels === 4 ? 1 : 0)]; count++; }
    return count ? sum / count : 0;
  };
  return readTag(brightness, width);
}
