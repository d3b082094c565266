// Video frames out of a track and into one (MediaStreamTrackProcessor and
// MediaStreamTrackGenerator, Chromium), each closed exactly once.
//
// Chromium makes the VideoFrame that answers a pending read in one task and hands it over in the
// next. A reader cancelled, or a track ended, between the two drops that frame unclosed, and the
// console says "A VideoFrame was garbage collected without being closed". So a reader stops
// between reads: it waits for the pending read's frame, closes it, and only then cancels. Only a
// track that sends nothing for `patience` milliseconds is cancelled with a read pending (no frame
// is then on its way).

/// Reads the frames of `track` (a video MediaStreamTrack): `onFrame(frame)` for each (it may be
/// async); the frame is closed once it returns. An error it throws is said on the console after
/// `failure`, and the frames go on. `maxBufferSize`: the frames the processor keeps while the page
/// is busy (older ones are dropped). Returns {ended, stop()}: `ended` settles when reading ends —
/// true when the track ended by itself, false when stopped; `stop()` stops reading and returns
/// `ended`. Stop the reader before the track (or its peer connection), and let `ended` settle.
export function readFrames(track, onFrame, { maxBufferSize = 0, failure = "A video frame could not be used:", patience = 250 } = {}) {
  const reader = new MediaStreamTrackProcessor(maxBufferSize ? { track, maxBufferSize } : { track }).readable.getReader();
  let stopping = false, finished = false, timer = 0;
  const ended = (async () => {
    try {
      while (!stopping) {
        const { value: frame, done } = await reader.read();
        if (done) return !stopping;
        try { if (!stopping) await onFrame(frame); } catch (error) { console.error(failure, error); } finally { frame.close(); }
      }
      await reader.cancel();
      return false;
    } catch (error) {
      return !stopping;  // the stream failed: read as the track's end
    } finally {
      finished = true;
      clearTimeout(timer);
    }
  })();
  return {
    ended,
    stop() {
      if (!stopping && !finished) {
        stopping = true;
        timer = setTimeout(() => reader.cancel().catch(() => {}), patience);
      }
      return ended;
    },
  };
}

/// Writes `frame` to `writer` (a MediaStreamTrackGenerator's), which closes the frame once it
/// takes it; a write refused (the track stopped, the writer closed) closes it here. Returns the
/// write's promise.
export function writeFrame(writer, frame) {
  return writer.write(frame).catch((error) => {
    frame.close();
    throw error;
  });
}
