// The worker of a room's encoded video transforms (RTCRtpScriptTransform, or the streams of
// createEncodedStreams handed over): on the sending side it finds which picture each encoded frame
// holds and appends that picture's metadata (media/frame-metadata.js); on the receiving side it
// strips the metadata before the decoder sees the frame and hands it to the page with the frame's
// RTP timestamp, by which the page finds it again when the frame is shown.
//
// The encoder drops and merges pictures as the network asks, and an encoded frame says nothing of
// which picture it came from, so the sender decodes its own frames and reads the frame tag
// (media/frame-tag.js) its publisher drew under each picture. A frame it cannot place (before the
// first key frame, or without a tag) goes out without metadata: never with another's.

import { appendTrailer, stripTrailer } from "./frame-metadata.js";
import { bandRows, readTagFromBytes } from "./frame-tag.js";

/// WebCodecs codec strings for the RTP payload types a browser sends.
const codecs = { "video/vp8": "vp8", "video/vp9": "vp09.00.10.08", "video/h264": "avc1.42001f", "video/av1": "av01.0.04M.08" };
/// How many pictures' metadata a sender keeps waiting for their encoded frames.
const kept = 300;
/// How long a sender waits for its decoder to show a frame before sending it without metadata.
const decodeTimeout = 250;

/// The counter a decoded picture's tag shows, or null; `sentHeight`: the height of the pictures
/// the publisher drew (the encoder may have scaled this one down).
async function tagOf(picture, sentHeight) {
  const rect = picture.visibleRect, rows = 2 * Math.ceil(bandRows(rect.height, sentHeight) / 2), top = rect.y + rect.height - rows;
  if (top < rect.y || rect.width < 32) return null;
  const band = { x: rect.x, y: top, width: rect.width, height: rows };
  const rgba = /^(RGB|BGR)/.test(picture.format || "");
  const bytes = new Uint8Array(picture.allocationSize({ rect: band }));
  const layout = await picture.copyTo(bytes, { rect: band });
  return readTagFromBytes(bytes, { width: rect.width, stride: layout[0].stride, offset: layout[0].offset, top: 0, rows, channels: rgba ? 4 : 1 });
}

/// Decodes a sender's own encoded frames to read their tags. Outputs are matched to their frames
/// by the chunk's timestamp (a number of its own), so a late output is dropped, never taken for
/// another frame's. A decoder that fails is closed and opened again at the next key frame, which
/// `requestKeyFrame()` asks the encoder for.
class TagReader {
  constructor(requestKeyFrame) {
    this.decoder = null; this.codec = null; this.waiting = new Map(); this.sequence = 0; this.sentHeight = 480;
    this.requestKeyFrame = requestKeyFrame; this.missed = 0;
  }

  reset() {
    if (this.decoder && this.decoder.state !== "closed") this.decoder.close();
    this.decoder = null;
    this.codec = null;
    for (const settle of this.waiting.values()) settle(null);
    this.waiting.clear();
    this.requestKeyFrame();
  }

  open(codec) {
    if (this.decoder && this.decoder.state !== "closed") this.decoder.close();
    this.decoder = null;
    try {
      const decoder = new VideoDecoder({
        output: (picture) => {
          const settle = this.waiting.get(picture.timestamp);
          this.waiting.delete(picture.timestamp);
          if (!settle) { picture.close(); return; }
          tagOf(picture, this.sentHeight).catch(() => null).then((counter) => { picture.close(); settle(counter); });
        },
        error: () => { if (this.decoder === decoder) this.reset(); },
      });
      // In software: a hardware decoder's frames may not be readable (format null).
      decoder.configure({ codec, optimizeForLatency: true, hardwareAcceleration: "prefer-software" });
      this.decoder = decoder;
      this.codec = codec;
    } catch (error) {
      console.error("The sender's tag reader could not decode " + codec + ":", error);
      this.codec = null;
    }
  }

  /// The counter of the picture `frame` (an RTCEncodedVideoFrame) holds, or null; `decoded` says
  /// whether the decoder showed it.
  read(frame) {
    const codec = codecs[String(frame.getMetadata().mimeType || "video/VP8").toLowerCase()];
    if (!codec || frame.type === "empty") return Promise.resolve({ counter: null, decoded: false });
    if (frame.type === "key" && codec !== this.codec) this.open(codec);
    if (!this.decoder || this.decoder.state !== "configured") return Promise.resolve({ counter: null, decoded: false });
    const timestamp = ++this.sequence;
    return new Promise((resolve) => {
      let settled = false;
      const settle = (counter, decoded = true) => { if (!settled) { settled = true; resolve({ counter, decoded }); } };
      this.waiting.set(timestamp, settle);
      setTimeout(() => {
        if (settled) return;
        this.waiting.delete(timestamp);
        settle(null, false);
        // A decoder that shows nothing for a second is stuck: start again at a key frame.
        if (++this.missed >= 4) { this.missed = 0; this.reset(); }
      }, decodeTimeout);
      try {
        this.decoder.decode(new EncodedVideoChunk({ type: frame.type === "key" ? "key" : "delta", timestamp, data: frame.data }));
      } catch (error) { this.reset(); }
    }).then((result) => { if (result.decoded) this.missed = 0; return result; });
  }
}

/// The sending side: `port` brings {counter, captureTime, pose, size} for each picture before it
/// is encoded (`size`: the picture's [w, h], without the tag). `requestKeyFrame()` asks the
/// encoder for a key frame (where the browser can).
function send(readable, writable, port, requestKeyFrame) {
  const metadata = new Map(), reader = new TagReader(requestKeyFrame);
  port.onmessage = ({ data }) => {
    if (typeof data.counter !== "number") return;
    reader.sentHeight = data.size[1];
    metadata.set(data.counter, data);
    if (metadata.size > kept) metadata.delete(metadata.keys().next().value);
  };
  // How many frames went out, with metadata, and why the others went without.
  const stats = { sent: 0, tagged: 0, undecoded: 0, untagged: 0, unknown: 0 };
  return readable.pipeThrough(new TransformStream({
    async transform(frame, controller) {
      // Whatever happens in here, the frame goes on: never a stalled video for a missing pose.
      try {
        const { counter, decoded } = await reader.read(frame);
        const found = counter === null ? null : metadata.get(counter);
        if (found) { frame.data = appendTrailer(frame.data, found); stats.tagged++; }
        else if (counter !== null) stats.unknown++;
        else if (decoded) stats.untagged++;
        else stats.undecoded++;
        stats.sent++;
        if (stats.sent % 30 === 0) port.postMessage({ stats });
      } catch (error) {
        console.error("A frame went out without its metadata:", error);
      }
      controller.enqueue(frame);
    },
  })).pipeTo(writable);
}

/// The receiving side: each frame's metadata goes to `port` as {rtpTimestamp, receivedAt (ms since
/// the epoch), counter, captureTime, pose, packet}.
function receive(readable, writable, port) {
  return readable.pipeThrough(new TransformStream({
    transform(frame, controller) {
      try {
        const { frame: data, metadata } = stripTrailer(frame.data);
        if (metadata) {
          frame.data = data;
          const rtpTimestamp = frame.getMetadata().rtpTimestamp ?? frame.timestamp;
          port.postMessage({ rtpTimestamp, receivedAt: performance.timeOrigin + performance.now(), ...metadata });
        }
      } catch (error) {
        console.error("A frame's metadata could not be read:", error);
      }
      controller.enqueue(frame);
    },
  })).pipeTo(writable);
}

function run({ side, port }, readable, writable, transformer = null) {
  const requestKeyFrame = () => { if (transformer && transformer.generateKeyFrame) transformer.generateKeyFrame().catch(() => {}); };
  const work = side === "send" ? send(readable, writable, port, requestKeyFrame) : receive(readable, writable, port);
  work.catch(() => {});  // the streams end with their peer connection
}

self.onrtctransform = (event) => run(event.transformer.options, event.transformer.readable, event.transformer.writable, event.transformer);
self.onmessage = ({ data }) => { if (data && data.readable) run(data, data.readable, data.writable); };
