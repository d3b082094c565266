// The metadata each encoded video frame of a room carries in the media path: a trailer the
// publisher appends after the codec's bytes (WebRTC encoded transforms) and every receiver strips
// before decoding, so the pose of the moment of capture can never drift from its picture. Pure.
//
// Trailer layout (little-endian), after the frame's own bytes:
//   0  UInt8    version (1)
//   1  UInt8    flags: bit 0 = a pose packet follows
//   2  UInt32   frame counter (the publisher's, one more for each frame it sends)
//   6  Float64  capture time, milliseconds since the Unix epoch on the publisher's clock
//  14  62 bytes the ARVis pose packet of the capture (only with flag bit 0)
//   …  UInt16   the trailer's length, these last 6 bytes included (20, or 82 with a pose)
//   …  4 bytes  "ARVF"
// Frames without the magic ending (another publisher's, or a codec's own) pass through whole.

import { decodePose, posePacketBytes } from "../protocol/pose-packet.js";

/// The Base64 text of an ArrayBuffer (a pose packet, as a room's annotate message carries it).
export const base64Of = (buffer) => btoa(String.fromCharCode(...new Uint8Array(buffer)));

/// The trailer's last four bytes: "ARVF".
export const trailerMagic = [0x41, 0x52, 0x56, 0x46];
/// The trailer's length without a pose, and with one.
export const trailerBytes = { bare: 20, withPose: 20 + posePacketBytes };
const version = 1;

/// The trailer (a Uint8Array) for a frame: {counter, captureTime (ms), pose (an ArrayBuffer of a
/// 62-byte pose packet) or null}.
export function encodeTrailer({ counter, captureTime, pose }) {
  const hasPose = pose instanceof ArrayBuffer && pose.byteLength === posePacketBytes;
  const length = hasPose ? trailerBytes.withPose : trailerBytes.bare;
  const bytes = new Uint8Array(length), view = new DataView(bytes.buffer);
  view.setUint8(0, version);
  view.setUint8(1, hasPose ? 1 : 0);
  view.setUint32(2, counter >>> 0, true);
  view.setFloat64(6, captureTime, true);
  if (hasPose) bytes.set(new Uint8Array(pose), 14);
  view.setUint16(length - 6, length, true);
  bytes.set(trailerMagic, length - 4);
  return bytes;
}

/// `frame` (an ArrayBuffer of encoded video) with its trailer appended: a new ArrayBuffer.
export function appendTrailer(frame, metadata) {
  const trailer = encodeTrailer(metadata);
  const joined = new Uint8Array(frame.byteLength + trailer.length);
  joined.set(new Uint8Array(frame), 0);
  joined.set(trailer, frame.byteLength);
  return joined.buffer;
}

/// Splits an encoded frame (an ArrayBuffer) into the codec's bytes and its metadata:
/// {frame (ArrayBuffer), metadata: {counter, captureTime, pose (decoded, or null), packet (the
/// pose packet's 62 bytes, or null)} or null}.
/// A frame without a well-formed trailer comes back whole with null metadata; one of a later
/// version is stripped (its length says how much) but not read.
export function stripTrailer(encoded) {
  const total = encoded.byteLength;
  if (total < trailerBytes.bare) return { frame: encoded, metadata: null };
  const tail = new Uint8Array(encoded, total - 4, 4);
  if (!trailerMagic.every((byte, index) => tail[index] === byte)) return { frame: encoded, metadata: null };
  const view = new DataView(encoded);
  const length = view.getUint16(total - 6, true);
  if (length < trailerBytes.bare || length > total) return { frame: encoded, metadata: null };
  const start = total - length, frame = encoded.slice(0, start);
  if (view.getUint8(start) !== version) return { frame, metadata: null };
  const hasPose = (view.getUint8(start + 1) & 1) === 1;
  if (length !== (hasPose ? trailerBytes.withPose : trailerBytes.bare)) return { frame: encoded, metadata: null };
  const packet = hasPose ? encoded.slice(start + 14, start + 14 + posePacketBytes) : null;
  const pose = packet ? decodePose(packet) : null;
  return { frame, metadata: { counter: view.getUint32(start + 2, true), captureTime: view.getFloat64(start + 6, true), pose, packet: pose ? packet : null } };
}
