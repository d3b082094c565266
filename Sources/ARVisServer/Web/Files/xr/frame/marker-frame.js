// The project's frame from sightings of its printed marker (ProjectMarker on the server): laid flat,
// its centre is the frame's origin and its top edge points along the frame's −z. A WebXR tracked
// image's space has +Y out of the picture and +Z towards its bottom, so a sighting gives the
// origin and the frame's +z directly; the frame is kept upright (a turn about y only). Pure.

/// The printed width of the marker, metres (the PDF prints it at exactly this).
export const markerWidth = 0.2;

/// The largest tilt from level of a marker that places the frame, degrees.
const maxTilt = 20;

/// One sighting from the image's pose `matrix` (column-major) and the width the tracker measured:
/// {position, yaw}, or {ignored: why} for a marker seen at an implausible size or not lying flat.
export function markerSighting(matrix, measuredWidth) {
  if (measuredWidth && Math.abs(measuredWidth / markerWidth - 1) > 0.25) {
    return { ignored: `a marker seen ${(measuredWidth * 100).toFixed(0)} cm wide, not ${markerWidth * 100} cm, is ignored (print the PDF at 100 %)` };
  }
  if (matrix[5] < Math.cos(maxTilt * Math.PI / 180)) return { ignored: "a marker that is not lying flat is ignored (lay it on the ground, face up)" };
  // The turn from both of the picture's level axes: +Z (its top edge to its bottom) and +X turned a
  // quarter back; their errors come from different corners' scatter, so together they halve it.
  return { position: [matrix[12], matrix[13], matrix[14]], yaw: Math.atan2(matrix[8] - matrix[2], matrix[10] + matrix[0]) };
}

/// The mean of sightings ({position, yaw}): the frame's matrix (translation × turn about y), the
/// standard error of its origin in metres (the scatter over the square root of the sightings; at
/// least a millimetre) and of its turn in degrees.
export function meanFrame(sightings) {
  const n = sightings.length, mean = [0, 0, 0];
  let sin = 0, cos = 0;
  for (const { position, yaw } of sightings) {
    for (let k = 0; k < 3; k++) mean[k] += position[k] / n;
    sin += Math.sin(yaw);
    cos += Math.cos(yaw);
  }
  const yaw = Math.atan2(sin, cos), c = Math.cos(yaw), s = Math.sin(yaw);
  let scatter = 0, turns = 0;
  for (const { position, yaw: turn } of sightings) {
    scatter += ((position[0] - mean[0]) ** 2 + (position[1] - mean[1]) ** 2 + (position[2] - mean[2]) ** 2) / n;
    turns += Math.atan2(Math.sin(turn - yaw), Math.cos(turn - yaw)) ** 2 / n;
  }
  return { matrix: [c, 0, -s, 0, 0, 1, 0, 0, s, 0, c, 0, mean[0], mean[1], mean[2], 1], error: Math.max(0.001, Math.sqrt(scatter / n)),
    degrees: Math.sqrt(turns / n) * 180 / Math.PI };
}
