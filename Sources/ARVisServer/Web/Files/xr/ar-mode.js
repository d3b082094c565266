// Which AR a device gets from the phone page, and why: the live WebXR view where the browser
// offers immersive-ar; else a snapshot in AR Quick Look (iPhone, iPad) or Scene Viewer (Android).

/// {kind: "webxr" | "quick-look" | "scene-viewer" | "none", explanation} for this browser.
export async function arMode() {
  if (navigator.xr && navigator.xr.isSessionSupported) {
    try {
      if (await navigator.xr.isSessionSupported("immersive-ar")) {
        return { kind: "webxr", explanation: "This browser has WebXR: Enter AR places the environment in your room, live — every save shows at once, widgets answer taps, and you can share your view with a remote expert." };
      }
    } catch (error) { /* WebXR refused (a page not served securely, or a policy): as without it */ }
  }
  return fallbackMode(navigator.userAgent, document.createElement("a").relList.supports("ar"));
}

/// The snapshot path of a browser without immersive-ar, by its user agent and whether links
/// open AR Quick Look (`rel="ar"`).
export function fallbackMode(userAgent, quickLook) {
  const why = "this browser has no WebXR immersive-ar session, so the environment is not live in AR here: ";
  if (quickLook || /iPhone|iPad|iPod/.test(userAgent)) {
    return { kind: "quick-look", explanation: "View in AR (iPhone, iPad) opens a snapshot in AR Quick Look — " + why + "it shows the version saved when you open it." };
  }
  if (/Android/.test(userAgent)) {
    return { kind: "scene-viewer", explanation: "View in AR (Android) opens a snapshot in Scene Viewer — " + why + "Chrome on an ARCore phone, served over HTTPS, gets the live view." };
  }
  return { kind: "none", explanation: "No AR on this device: open this page on a phone (scan the QR Code) — Chrome on Android gets the live WebXR view, an iPhone a snapshot in AR Quick Look." };
}
