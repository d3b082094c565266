// What the AR view sends a room each frame: an ARVis pose packet (the layout room-protocol.js
// reads, and the server checks) made from the XR viewer's pose and its view's projection. Pure.

import { posePacketBytes } from "../studio/rooms/room-protocol.js";
import { dot } from "../viewer/matrix.js";

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

/// The camera intrinsics [fx, fy, cx, cy] in points of a `width` × `height` view whose
/// projection matrix (column-major, OpenGL's clip space) is `projection`; view y points down.
export function intrinsicsOf(projection, width, height) {
  return [projection[0] * width / 2, projection[5] * height / 2, width / 2 * (1 - projection[8]), height / 2 * (1 + projection[9])];
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

/// Where a ray from the viewer along `direction` (room coordinates) meets its view, normalised
/// ([0…1, 0…1] from the top left), for a viewer at `viewerMatrix` with `projection`; null behind it.
export function tapOnView(direction, viewerMatrix, projection) {
  // The direction in the viewer's frame: its axes (the matrix's columns) dotted with it.
  const local = [0, 4, 8].map((column) => dot([viewerMatrix[column], viewerMatrix[column + 1], viewerMatrix[column + 2]], direction));
  if (local[2] >= 0) return null;
  const x = projection[0] * local[0] / -local[2] - projection[8], y = projection[5] * local[1] / -local[2] - projection[9];
  return [(x + 1) / 2, (1 - y) / 2];
}

/// The intrinsics [fx, fy, cx, cy] of a view (`view`: [w, h] points) re-expressed in the pixels
/// of a camera picture (`picture`: [w, h]) the view shows filled (scaled to cover it and cropped
/// at the centre), as a phone's AR view shows its camera.
export function pictureIntrinsics([fx, fy, cx, cy], view, picture) {
  const k = Math.max(view[0] / picture[0], view[1] / picture[1]);
  const ox = (view[0] - picture[0] * k) / 2, oy = (view[1] - picture[1] * k) / 2;
  return [fx / k, fy / k, (cx - ox) / k, (cy - oy) / k];
}
