// A viewer's side of a room's video: the receiver transform's metadata kept by RTP timestamp,
// and each frame as it is shown, paired with its own metadata by that timestamp — through
// MediaStreamTrackProcessor where the browser has it (every decoded frame, exactly), else
// through a video element's requestVideoFrameCallback.

import { readFrames } from "./frame-stream.js";

/// The metadata of the last `limit` received frames, by RTP timestamp and by counter (for
/// browsers whose shown frames carry no RTP timestamp: the viewer reads the counter from the
/// picture's tag instead).
export class FrameMetadata {
  constructor(limit = 600) { this.limit = limit; this.byTimestamp = new Map(); this.byCounter = new Map(); }

  /// Keeps what the receiver transform posted: {rtpTimestamp, counter, captureTime, pose, packet}.
  keep(metadata) {
    if (typeof metadata.rtpTimestamp !== "number") return;
    for (const [map, key] of [[this.byTimestamp, metadata.rtpTimestamp], [this.byCounter, metadata.counter]]) {
      map.delete(key);
      map.set(key, metadata);
      if (map.size > this.limit) map.delete(map.keys().next().value);
    }
  }

  /// The metadata of the frame with `rtpTimestamp`, or null.
  of(rtpTimestamp) { return this.byTimestamp.get(rtpTimestamp) || null; }

  /// The metadata of the picture whose tag shows `counter`, or null.
  ofCounter(counter) { return this.byCounter.get(counter) || null; }

  /// The metadata of the frame with `rtpTimestamp`, waiting up to `patience` ms for it: the
  /// receiver transform posts it before the frame is decoded, but a busy page may take the decoded
  /// frame first. Null when it does not come (the frame carried none).
  async arriving(rtpTimestamp, patience = 40) {
    const deadline = performance.now() + patience;
    let found = this.of(rtpTimestamp);
    // A stream that never carried metadata (a publisher without the trailer) is not waited for.
    while (!found && this.byTimestamp.size && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 2));
      found = this.of(rtpTimestamp);
    }
    return found;
  }
}

/// Shows `track` (the remote video): `onFrame(picture, metadata)` for each frame shown, where
/// `picture` is something drawImage takes, valid until the call (or the promise it returns) ends;
/// metadata is null for a frame that carried none, or whose RTP timestamp the browser does not
/// give (the picture's tag then finds it: `FrameMetadata.ofCounter`). Returns {stop()}: it returns a promise that
/// settles once no frame is being read (stop it before the track ends: media/frame-stream.js).
export function showFrames(track, metadata, onFrame) {
  if (typeof MediaStreamTrackProcessor === "function") {
    // One frame held at most: a slow page skips to the newest frame instead of falling behind.
    const frames = readFrames(track, async (frame) => {
      const rtp = typeof frame.metadata === "function" ? frame.metadata().rtpTimestamp : undefined;
      await onFrame(frame, rtp === undefined ? null : await metadata.arriving(rtp));
    }, { maxBufferSize: 1, failure: "A video frame could not be shown:" });
    return { stop: () => frames.stop() };
  }
  // In the page, hidden: some browsers call back only for a video element that is in the document.
  const video = document.createElement("video");
  Object.assign(video, { muted: true, playsInline: true, autoplay: true, hidden: true, srcObject: new MediaStream([track]) });
  document.body.append(video);
  let handle = 0;
  const next = () => { handle = video.requestVideoFrameCallback(shown); };
  const shown = (now, frame) => {
    next();
    const failed = (error) => console.error("A video frame could not be shown:", error);
    try { Promise.resolve(onFrame(video, frame.rtpTimestamp === undefined ? null : metadata.of(frame.rtpTimestamp))).catch(failed); } catch (error) { failed(error); }
  };
  next();
  video.play().catch(() => {});
  return {
    stop() {
      video.cancelVideoFrameCallback(handle);
      video.srcObject = null;
      video.remove();
      return Promise.resolve();
    },
  };
}
