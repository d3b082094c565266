// When a pane may be blown: Bubble Vision's rule (tracking normal and the world mapped,
// reference/other-systems.md §C.3) read from what WebXR reports. Tracking is normal when the
// viewer's pose has not been emulated (`emulatedPosition`, WebXR's sign of lost positional
// tracking) in the last 30 frames; the room is mapped when a hit-test result or a plane was seen in
// the last second. The messages are the seed's.

/// Frames of real (not emulated) tracking before a blow is allowed, and how long a surface seen
/// keeps the room "mapped" (ms).
export const steadyFrames = 30;
export const surfaceMemory = 1000;

/// The seed's messages, by state.
export const messages = {
  initializing: "Initializing tracking...",
  moving: "Move slower",
  lost: "Tracking unavailable",
  scanning: "Keep scanning environment...",
  ready: "Ready to blow bubbles!",
};

/// A gate fed once a frame: `update({pose, surfaceSeen, now})` with the frame's viewer pose (null
/// when the session has none), whether a hit-test result or a plane was seen this frame, and the
/// frame's time in ms; it returns {ready, state, message}. Tracking that was normal and then
/// emulated reads as moving too fast (WebXR says no more; the seed's "Move slower"); emulated from
/// the start, as still initializing.
export function blowGate() {
  let steady = 0, everTracked = false, lastSurface = -Infinity;
  return {
    update({ pose, surfaceSeen, now }) {
      if (surfaceSeen) lastSurface = now;
      let state;
      if (!pose) { steady = 0; state = everTracked ? "lost" : "initializing"; }
      else if (pose.emulatedPosition) { steady = 0; state = everTracked ? "moving" : "initializing"; }
      else {
        steady += 1;
        if (steady >= steadyFrames) everTracked = true;
        state = steady < steadyFrames ? (everTracked ? "moving" : "initializing") : now - lastSurface <= surfaceMemory ? "ready" : "scanning";
      }
      return { ready: state === "ready", state, message: messages[state] };
    },
  };
}
