// A viewer's side of a room's video: the receiver transform's metadata kept by RTP timestamp,
// and each frame as it is shown, paired with its own metadata by that timestamp — through
// MediaStreamTrackProcessor where the browser has it (every decoded frame, exactly), else
// through a video element's requestVideoFrameCallback.

/// The metadata of the last `limit` received frames, by RTP timestamp.
export class FrameMetadata {
  constructor(limit = 600) { this.limit = limit; this.byTimestamp = new Map(); }

  /// Keeps what the receiver transform posted: {rtpTimestamp, counter, captureTime, pose, packet}.
  keep(metadata) {
    if (typeof metadata.rtpTimestamp !== "number") return;
    this.byTimestamp.delete(metadata.rtpTimestamp);
    this.byTimestamp.set(metadata.rtpTimestamp, metadata);
    if (this.byTimestamp.size > this.limit) this.byTimestamp.delete(this.byTimestamp.keys().next().value);
  }

  /// The metadata of the frame with `rtpTimestamp`, or null.
  of(rtpTimestamp) { return this.byTimestamp.get(rtpTimestamp) || null; }

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
/// `picture` is something drawImage takes and is only valid during the call; metadata is null
/// for a frame that carried none. Returns {stop()}.
export function showFrames(track, metadata, onFrame) {
  if (typeof MediaStreamTrackProcessor === "function") {
    // One frame held at most: a slow page skips to the newest frame instead of falling behind.
    const reader = new MediaStreamTrackProcessor({ track, maxBufferSize: 1 }).readable.getReader();
    let stopped = false;
    (async () => {
      for (;;) {
        const { value: frame, done } = await reader.read();
        if (done) break;
        try {
          if (!stopped) {
            const rtp = typeof frame.metadata === "function" ? frame.metadata().rtpTimestamp : undefined;
            onFrame(frame, rtp === undefined ? null : await metadata.arriving(rtp));
          }
        } finally { frame.close(); }
      }
    })().catch((error) => { if (!stopped) console.error("The room's video stopped showing:", error); });
    return { stop() { stopped = true; reader.cancel().catch(() => {}); } };
  }
  const video = document.createElement("video");
  Object.assign(video, { muted: true, playsInline: true, autoplay: true, srcObject: new MediaStream([track]) });
  let handle = 0;
  const next = () => { handle = video.requestVideoFrameCallback(shown); };
  const shown = (now, frame) => { onFrame(video, frame.rtpTimestamp === undefined ? null : metadata.of(frame.rtpTimestamp)); next(); };
  next();
  video.play().catch(() => {});
  return { stop() { video.cancelVideoFrameCallback(handle); video.srcObject = null; } };
}
