// The per-frame metadata trailer (media/frame-metadata.js): what a publisher appends to each
// encoded video frame and a receiver strips before decoding.
import assert from "node:assert/strict";
import { test } from "node:test";
import { appendTrailer, encodeTrailer, stripTrailer, trailerBytes }
  from "../../Sources/ARVisServer/Web/Files/media/frame-metadata.js";
import { encodePose } from "../../Sources/ARVisServer/Web/Files/protocol/pose-packet.js";

const hex = (bytes) => Array.from(new Uint8Array(bytes), (byte) => byte.toString(16).padStart(2, "0")).join("");
const frameOf = (...values) => new Uint8Array(values).buffer;
const pose = encodePose({ viewport: [390, 844], frame: 7, time: 1700000000.5, position: [0.25, 1.5, -0.75],
  orientation: [0, Math.SQRT1_2, 0, Math.SQRT1_2], intrinsics: [600, 600, 195, 422] });

test("a bare trailer is 20 bytes: version, flags, counter, capture time, length, ARVF", () => {
  // From the layout: 01 | 00 | 2a000000 | 1700000000123.5 as a little-endian double (Python's struct '<d') | 1400 | 41525646.
  const expected = "01" + "00" + "2a000000" + "00b88756febc7842" + "1400" + "41525646";
  const double = new DataView(new ArrayBuffer(8));
  double.setFloat64(0, 1700000000123.5, true);
  assert.equal(hex(double.buffer), "00b88756febc7842");
  assert.equal(hex(encodeTrailer({ counter: 42, captureTime: 1700000000123.5, pose: null })), expected);
});

test("a frame's trailer comes off whole: the codec's bytes, the counter, the time and the pose", () => {
  const encoded = appendTrailer(frameOf(0x9d, 0x01, 0x2a, 0xff), { counter: 4294967295, captureTime: 12.25, pose });
  assert.equal(encoded.byteLength, 4 + trailerBytes.withPose);
  const { frame, metadata } = stripTrailer(encoded);
  assert.equal(hex(frame), "9d012aff");
  assert.equal(metadata.counter, 4294967295);
  assert.equal(metadata.captureTime, 12.25);
  assert.equal(metadata.pose.frame, 7);
  assert.equal(hex(metadata.packet), hex(pose), "the packet as it was sent, for an annotation made on this frame");
  assert.deepEqual(metadata.pose.viewport, [390, 844]);
  assert.ok(Math.abs(metadata.pose.orientation[1] - Math.SQRT1_2) < 1e-6);
});

test("without a pose, the metadata says so", () => {
  const { frame, metadata } = stripTrailer(appendTrailer(frameOf(1, 2, 3), { counter: 1, captureTime: 5, pose: null }));
  assert.equal(hex(frame), "010203");
  assert.deepEqual(metadata, { counter: 1, captureTime: 5, pose: null, packet: null });
});

test("an empty frame keeps its trailer readable", () => {
  const { frame, metadata } = stripTrailer(appendTrailer(new ArrayBuffer(0), { counter: 3, captureTime: 0, pose }));
  assert.equal(frame.byteLength, 0);
  assert.equal(metadata.counter, 3);
});

test("frames without a trailer pass through whole, however they end", () => {
  for (const bytes of [[], [1, 2, 3], Array(40).fill(0), [...Array(16).fill(7), 0x05, 0x00, 0x41, 0x52, 0x56, 0x46]]) {
    const encoded = frameOf(...bytes);
    const { frame, metadata } = stripTrailer(encoded);
    assert.equal(metadata, null, `${bytes.length} bytes`);
    assert.equal(hex(frame), hex(encoded));
  }
});

test("a length that does not fit the flags, or runs past the frame, is not a trailer", () => {
  const trailer = encodeTrailer({ counter: 9, captureTime: 1, pose: null });
  new DataView(trailer.buffer).setUint8(1, 1);  // claims a pose it does not hold
  assert.equal(stripTrailer(trailer.buffer).metadata, null);
  const long = encodeTrailer({ counter: 9, captureTime: 1, pose: null });
  new DataView(long.buffer).setUint16(14, 500, true);
  assert.equal(stripTrailer(long.buffer).metadata, null);
  assert.equal(stripTrailer(long.buffer).frame.byteLength, 20);
});

test("a later version's trailer is stripped by its length but not read", () => {
  const trailer = encodeTrailer({ counter: 9, captureTime: 1, pose: null });
  new DataView(trailer.buffer).setUint8(0, 2);
  const encoded = new Uint8Array([5, 6, ...trailer]).buffer;
  const { frame, metadata } = stripTrailer(encoded);
  assert.equal(hex(frame), "0506");
  assert.equal(metadata, null);
});
