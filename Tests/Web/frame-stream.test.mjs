// Frames in and out of tracks (media/frame-stream.js), with a stand-in MediaStreamTrackProcessor
// whose reader hands out frames when the test says so, and records when it is cancelled.
import assert from "node:assert/strict";
import { test } from "node:test";
import { readFrames, writeFrame } from "../../Sources/ARVisServer/Web/Files/media/frame-stream.js";

/// A stand-in VideoFrame that counts its closes.
class FakeFrame {
  constructor(name) { this.name = name; this.closes = 0; }
  close() { this.closes += 1; }
}

/// The reader of a stand-in processor: a read waits for `deliver(frame)` or `end()`; a cancel ends
/// a pending read, as Chromium's does.
class FakeReader {
  constructor() { this.pending = null; this.reads = 0; this.cancels = []; }
  read() {
    this.reads += 1;
    return new Promise((resolve) => { this.pending = resolve; });
  }
  /// Answers the pending read with `frame`.
  deliver(frame) { const resolve = this.pending; this.pending = null; resolve({ value: frame, done: false }); }
  /// Ends the pending read, as a track that ended does.
  end() { const resolve = this.pending; this.pending = null; if (resolve) resolve({ value: undefined, done: true }); }
  async cancel() { this.cancels.push({ readPending: this.pending !== null }); this.end(); }
}

/// Installs a stand-in MediaStreamTrackProcessor; returns its reader and the options it was made with.
function fakeProcessor() {
  const made = { reader: new FakeReader(), options: null };
  globalThis.MediaStreamTrackProcessor = class {
    constructor(options) { made.options = options; this.readable = { getReader: () => made.reader }; }
  };
  return made;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

test("each frame is handed on and closed once it has been used, an error said and the frames going on", async () => {
  const { reader } = fakeProcessor();
  const used = [], said = [];
  const error = console.error;
  console.error = (...parts) => said.push(parts);
  try {
    const frames = readFrames("track", async (frame) => {
      assert.equal(frame.closes, 0, "open while it is used");
      used.push(frame.name);
      if (frame.name === "b") throw new Error("no");
    }, { failure: "Could not:" });
    const sent = [new FakeFrame("a"), new FakeFrame("b"), new FakeFrame("c")];
    for (const frame of sent) { await settle(); reader.deliver(frame); }
    await settle();
    reader.end();
    assert.equal(await frames.ended, true, "the track ended by itself");
    assert.deepEqual(used, ["a", "b", "c"]);
    assert.deepEqual(sent.map((frame) => frame.closes), [1, 1, 1]);
    assert.equal(said.length, 1);
    assert.equal(said[0][0], "Could not:");
  } finally {
    console.error = error;
  }
});

test("the processor is asked to keep only maxBufferSize frames when it is given", () => {
  const made = fakeProcessor();
  readFrames("track", () => {}, { maxBufferSize: 1 });
  assert.deepEqual(made.options, { track: "track", maxBufferSize: 1 });
  const plain = fakeProcessor();
  readFrames("track", () => {});
  assert.deepEqual(plain.options, { track: "track" });
});

test("stopped with a read pending, the reader waits for that read's frame, closes it unused, then cancels", async () => {
  const { reader } = fakeProcessor();
  const used = [];
  const frames = readFrames("track", (frame) => used.push(frame.name), { patience: 10_000 });
  await settle();
  assert.equal(reader.pending !== null, true);
  const stopped = frames.stop();
  await settle();
  assert.deepEqual(reader.cancels, [], "not cancelled while a frame may be on its way");
  const late = new FakeFrame("late");
  reader.deliver(late);
  assert.equal(await stopped, false, "stopped, not ended by the track");
  assert.deepEqual(used, [], "a frame after the stop is not used");
  assert.equal(late.closes, 1, "but it is closed");
  assert.deepEqual(reader.cancels, [{ readPending: false }], "cancelled between reads");
  assert.equal(reader.reads, 1);
});

test("stopped while a frame is used, the reader cancels once it is done, reading no more", async () => {
  const { reader } = fakeProcessor();
  let finish;
  const frames = readFrames("track", () => new Promise((resolve) => { finish = resolve; }));
  await settle();
  const frame = new FakeFrame("a");
  reader.deliver(frame);
  await settle();
  const stopped = frames.stop();
  await settle();
  assert.equal(frame.closes, 0, "still in use");
  finish();
  assert.equal(await stopped, false);
  assert.equal(frame.closes, 1);
  assert.deepEqual(reader.cancels, [{ readPending: false }]);
  assert.equal(reader.reads, 1);
});

test("a track that sends nothing is cancelled with its read pending after the patience", async () => {
  const { reader } = fakeProcessor();
  const frames = readFrames("track", () => {}, { patience: 20 });
  await settle();
  const started = performance.now();
  assert.equal(await frames.stop(), false);
  assert.ok(performance.now() - started >= 15, "waited for a frame first");
  assert.deepEqual(reader.cancels, [{ readPending: true }]);
  assert.equal(await frames.stop(), false, "stopping again is the same stop");
  assert.equal(reader.cancels.length, 1);
});

test("a stream that fails reads as the track's end", async () => {
  const made = fakeProcessor();
  made.reader.read = () => Promise.reject(new TypeError("the stream errored"));
  assert.equal(await readFrames("track", () => {}).ended, true);
});

test("a frame written is left to the track to close; a frame refused is closed here", async () => {
  const taken = new FakeFrame("taken"), refused = new FakeFrame("refused");
  const writer = { write: (frame) => (frame === taken ? Promise.resolve() : Promise.reject(new TypeError("the track stopped"))) };
  await writeFrame(writer, taken);
  assert.equal(taken.closes, 0);
  await assert.rejects(writeFrame(writer, refused), /the track stopped/);
  assert.equal(refused.closes, 1);
});
