// Attaching a room's encoded video transforms (media/frame-transform.js) to a sender or a
// receiver: RTCRtpScriptTransform where the browser has it, else the streams of
// createEncodedStreams handed to the same worker (that needs `encodedInsertableStreams` in the
// peer connection's configuration, which `peerConfiguration` sets).

const workerURL = new URL("./frame-transform.js", import.meta.url);

/// Whether this browser needs createEncodedStreams (it has no RTCRtpScriptTransform).
export const usesEncodedStreams = () => typeof RTCRtpScriptTransform === "undefined";

/// The RTCPeerConnection configuration for a room: its `iceServers` (from `welcome`) and
/// `iceTransportPolicy` ("all", or "relay" to send only through TURN).
export function peerConfiguration(iceServers, iceTransportPolicy = "all") {
  const configuration = { iceServers: iceServers || [], iceTransportPolicy };
  if (usesEncodedStreams()) configuration.encodedInsertableStreams = true;
  return configuration;
}

/// Runs the transform of `side` ("send" or "receive") on `endpoint` (an RTCRtpSender or
/// RTCRtpReceiver) in a worker of its own. Returns {port (this side's MessagePort: a sender
/// posts each picture's metadata to it, a receiver hears each frame's), close()}.
export function attachTransform(endpoint, side) {
  const worker = new Worker(workerURL, { type: "module", name: "arvis-" + side });
  const channel = new MessageChannel();
  if (usesEncodedStreams()) {
    const { readable, writable } = endpoint.createEncodedStreams();
    worker.postMessage({ side, port: channel.port2, readable, writable }, [channel.port2, readable, writable]);
  } else {
    endpoint.transform = new RTCRtpScriptTransform(worker, { side, port: channel.port2 }, [channel.port2]);
  }
  return { port: channel.port1, close: () => { channel.port1.close(); worker.terminate(); } };
}

/// Prefers VP8 on a sender's transceiver (every browser decodes it, and the tag survives it well),
/// keeping the others as fallbacks.
export function preferVP8(transceiver) {
  if (!transceiver.setCodecPreferences || typeof RTCRtpReceiver.getCapabilities !== "function") return;
  const codecs = (RTCRtpReceiver.getCapabilities("video") || { codecs: [] }).codecs;
  const rank = (codec) => codec.mimeType.toLowerCase() === "video/vp8" ? 0 : 1;
  try { transceiver.setCodecPreferences([...codecs].sort((a, b) => rank(a) - rank(b))); } catch (error) { /* keep the browser's order */ }
}
