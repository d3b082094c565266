// One reading for geo alignment: a Geolocation API fix and the compass heading of the camera's
// forward direction, from `deviceorientationabsolute` (the W3C DeviceOrientation angles, Earth's
// frame: x east, y north, z up). The server turns it into the project's frame
// (POST …/align/geo, ARVisPlanting's GeoAlignment); nothing here computes the frame.

/// The compass heading, degrees clockwise from north, of the camera's forward direction (the
/// device's −z) for device orientation angles alpha, beta, gamma (degrees, Z-X'-Y'' intrinsic);
/// null when the camera looks straight up or down (no heading then).
export function cameraHeading(alpha, beta, gamma) {
  const r = Math.PI / 180, [ca, sa, cb, sb, cg, sg] = [Math.cos(alpha * r), Math.sin(alpha * r), Math.cos(beta * r), Math.sin(beta * r), Math.cos(gamma * r), Math.sin(gamma * r)];
  // −(Rz(α)·Rx(β)·Ry(γ))·ẑ: the device's −z in Earth's frame.
  const east = -(ca * sg + sa * sb * cg), north = -(sa * sg - ca * sb * cg);
  if (Math.hypot(east, north) < 0.1) return null;
  return ((Math.atan2(east, north) / r) % 360 + 360) % 360;
}

/// The compass error assumed when the browser does not report one (Chrome does not), degrees.
export const assumedHeadingError = 10;

/// Follows the absolute device orientation; `latest()` gives {heading, headingAccuracy, at} or null.
export function followCompass() {
  let latest = null;
  const listener = (event) => {
    if (event.absolute === false || event.alpha === null || event.alpha === undefined) return;
    const heading = cameraHeading(event.alpha, event.beta || 0, event.gamma || 0);
    if (heading === null) return;
    const reported = Number(event.webkitCompassAccuracy);
    latest = { heading: heading >= 360 ? 0 : heading, headingAccuracy: reported > 0 ? Math.min(180, reported) : assumedHeadingError, at: performance.now() };
  };
  addEventListener("deviceorientationabsolute", listener);
  return { latest: () => latest, stop: () => removeEventListener("deviceorientationabsolute", listener) };
}

/// One fix from the Geolocation API (high accuracy, within 15 s): {latitude, longitude, accuracy}.
export function currentFix() {
  return new Promise((resolve, reject) => {
    if (!navigator.geolocation) { reject(new Error("this browser has no Geolocation API")); return; }
    navigator.geolocation.getCurrentPosition(
      (position) => resolve({ latitude: position.coords.latitude, longitude: position.coords.longitude, accuracy: Math.min(10000, position.coords.accuracy) }),
      (error) => reject(new Error(error.code === 1 ? "the browser was not allowed the location" : "no location fix (" + error.message + ")")),
      { enableHighAccuracy: true, timeout: 15000, maximumAge: 0 });
  });
}
