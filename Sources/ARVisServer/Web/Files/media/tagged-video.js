// A publisher's video as a room sends it: each camera picture redrawn with the frame tag under it
// (media/frame-tag.js), written to a track of its own, and its metadata — counter, capture time and
// the pose of that moment — handed to every sender transform before the picture reaches the
// encoder. Needs MediaStreamTrackProcessor and MediaStreamTrackGenerator (Chromium).

import { base64Of } from "./frame-metadata.js";
import { readFrames, writeFrame } from "./frame-stream.js";
import { drawTag, tagRows, writeTag } from "./frame-tag.js";

/// Whether this browser can publish tagged video.
export const canPublishVideo = () => typeof MediaStreamTrackProcessor === "function" && typeof MediaStreamTrackGenerator === "function"
  && typeof OffscreenCanvas === "function" && typeof VideoFrame === "function";

/// The size a picture is sent at: at most 640 points on its long side, each side even (as I420
/// needs), its shape kept.
export function sentSize(width, height) {
  const scale = Math.min(1, 640 / Math.max(width, height));
  const even = (value) => Math.max(2, 2 * Math.round(value * scale / 2));
  return [even(width), even(height)];
}

/// The picture with the band of `counter` under it, made in memory — the picture's planes copied
/// with room below and the band written into them — when it is already I420 or NV12 at the size
/// it is sent at (a camera's usual case); else null, and it is drawn on a canvas instead.
async function inMemory(picture, width, height, counter, timestamp) {
  const format = picture.format;
  if ((format !== "I420" && format !== "NV12") || picture.visibleRect.width !== width || picture.visibleRect.height !== height
    || picture.rotation || picture.flip) return null;
  const rows = height + tagRows, luma = width * rows, chroma = (width / 2) * (rows / 2);
  const bytes = new Uint8Array(luma + 2 * chroma).fill(128);
  const layout = format === "I420"
    ? [{ offset: 0, stride: width }, { offset: luma, stride: width / 2 }, { offset: luma + chroma, stride: width / 2 }]
    : [{ offset: 0, stride: width }, { offset: luma, stride: width }];
  try { await picture.copyTo(bytes, { layout }); } catch (error) { return null; }
  writeTag(bytes, counter, { width, stride: width, top: height });
  return new VideoFrame(bytes, { format, codedWidth: width, codedHeight: rows, timestamp, layout });
}

/// Publishes `camera` (a video MediaStreamTrack) tagged. `poseOf(size, time, timestamp)` gives the
/// pose packet (an ArrayBuffer, or null) for a picture of `size` ([w, h], the picture without the
/// tag) captured at `time` (ms since the epoch), whose VideoFrame timestamp is `timestamp` (µs).
/// Returns {track, addPort(port), removePort(port), stop(), log}: `log.sent` holds the last
/// pictures sent as [counter, capture time, Base64 pose packet or null], and `log.ended` is set
/// when the camera ended by itself. `stop()` stops reading the camera first, then stops it and the
/// track; it returns a promise that settles once both are stopped.
export function taggedVideo(camera, poseOf) {
  const generator = new MediaStreamTrackGenerator({ kind: "video" });
  const writer = generator.writable.getWriter();
  const ports = new Set();
  const log = { counter: 0, sent: [], size: null };
  let canvas = null, g = null;

  /// Tags one camera picture (closed once read) and writes it to the track.
  async function send(picture) {
    const captureTime = performance.timeOrigin + performance.now();
    if (!canvas) {
      log.size = sentSize(picture.displayWidth, picture.displayHeight);
      canvas = new OffscreenCanvas(log.size[0], log.size[1] + tagRows);
      g = canvas.getContext("2d", { alpha: false });
    }
    const [width, height] = log.size, counter = (log.counter = (log.counter + 1) & 0xffffff);
    const timestamp = picture.timestamp;
    let tagged = await inMemory(picture, width, height, counter, timestamp);
    if (!tagged) {
      g.drawImage(picture, 0, 0, width, height);
      drawTag(g, counter, width, height);
      tagged = new VideoFrame(canvas, { timestamp });
    }
    picture.close();
    try {
      const pose = poseOf(log.size, captureTime, timestamp);
      for (const port of ports) port.postMessage({ counter, captureTime, pose, size: log.size });
      log.sent.push([counter, captureTime, pose ? base64Of(pose) : null]);
      if (log.sent.length > 3000) log.sent.splice(0, 1000);
    } catch (error) {
      tagged.close();
      throw error;
    }
    await writeFrame(writer, tagged);
  }

  // One picture that fails is skipped (and said); the video goes on.
  const pictures = readFrames(camera, send, { failure: "A camera picture could not be sent:" });
  // The camera ended (unplugged, or taken by another app): the track ends with it.
  pictures.ended.then((byItself) => { if (byItself) { log.ended = true; generator.stop(); } });

  return {
    track: generator,
    log,
    addPort: (port) => ports.add(port),
    removePort: (port) => ports.delete(port),
    stop() {
      return pictures.stop().then(() => {
        writer.close().catch(() => {});
        generator.stop();
        camera.stop();
      });
    },
  };
}
