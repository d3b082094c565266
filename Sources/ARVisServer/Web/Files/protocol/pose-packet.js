// ARVis pose packets, both ways: the 62 bytes a phone sends a room each frame (the server checks
// them and relays them as they are) and what a reader makes of them. Pure: no DOM, no socket.

/// The size of an ARVis pose packet.
export const posePacketBytes = 62;

/// An ARVis pose packet (62 bytes, little-endian, in an ArrayBuffer): version 1 (UInt8), flags,
/// viewport width and height (UInt16 points), frame (UInt32), time (Float64 seconds), position
/// (3 × Float32 metres), orientation x, y, z (Float32; w ≥ 0 is implied), intrinsics fx, fy, cx, cy
/// (Float32 points), then a CRC-32 the server checked before relaying it. Null for a buffer of
/// another length or version.
export function decodePose(buffer) {
  if (buffer.byteLength !== posePacketBytes) return null;
  const view = new DataView(buffer);
  if (view.getUint8(0) !== 1) return null;
  const f = (offset) => view.getFloat32(offset, true);
  const x = f(30), y = f(34), z = f(38);
  return { viewport: [view.getUint16(2, true), view.getUint16(4, true)], frame: view.getUint32(6, true), time: view.getFloat64(10, true),
    position: [f(18), f(22), f(26)], orientation: [x, y, z, Math.sqrt(Math.max(0, 1 - x * x - y * y - z * z))], intrinsics: [f(42), f(46), f(50), f(54)] };
}

const crcTable = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/// CRC-32 (IEEE, as zlib and PNG compute it) of `bytes` (a Uint8Array).
export function crc32(bytes) {
  let crc = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) crc = crcTable[(crc ^ bytes[i]) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/// The 62-byte packet (an ArrayBuffer) of a camera pose: {viewport: [w, h] points, frame, time
/// (seconds), position [x, y, z], orientation [x, y, z, w], intrinsics [fx, fy, cx, cy]}. The
/// quaternion is sent with w ≥ 0, as the format keeps it.
export function encodePose({ viewport, frame, time, position, orientation, intrinsics }) {
  const buffer = new ArrayBuffer(posePacketBytes), view = new DataView(buffer);
  const sign = orientation[3] < 0 ? -1 : 1;
  view.setUint8(0, 1);
  view.setUint8(1, 0);
  view.setUint16(2, Math.max(0, Math.min(65535, Math.round(viewport[0]))), true);
  view.setUint16(4, Math.max(0, Math.min(65535, Math.round(viewport[1]))), true);
  view.setUint32(6, frame >>> 0, true);
  view.setFloat64(10, time, true);
  [...position, ...orientation.slice(0, 3).map((value) => value * sign), ...intrinsics]
    .forEach((value, index) => view.setFloat32(18 + 4 * index, value, true));
  view.setUint32(58, crc32(new Uint8Array(buffer, 0, 58)), true);
  return buffer;
}
