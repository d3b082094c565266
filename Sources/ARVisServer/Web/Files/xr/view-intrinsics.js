// The camera geometry of a pose packet (protocol/pose-packet.js) the AR view sends a room each frame:
// intrinsics from the XR view's projection, a tap's place on the view, intrinsics in a camera
// picture's pixels. Pure.

import { dot } from "../viewer/matrix.js";

/// The camera intrinsics [fx, fy, cx, cy] in points of a `width` × `height` view whose
/// projection matrix (column-major, OpenGL's clip space) is `projection`; view y points down.
export function intrinsicsOf(projection, width, height) {
  return [projection[0] * width / 2, projection[5] * height / 2, width / 2 * (1 - projection[8]), height / 2 * (1 + projection[9])];
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
