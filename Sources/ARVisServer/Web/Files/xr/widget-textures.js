// The widgets' textures: the hub's PNG of each widget (by scene id, at the device's pixel ratio)
// fetched once per version that changed it, decoded off the main thread, and kept within a budget.

/// The most bytes of widget textures (with their mipmaps) kept at the device's pixel ratio; past
/// it, widgets are fetched at 1 pixel per point (docs/webxr.md).
export const textureBudget = 48 * 1024 * 1024;

/// The most pictures fetched at once.
export const inFlight = 4;

/// The pixels per point to fetch at: the device's pixel ratio rounded, 1 to 3 (the hub's scales),
/// or 1 once `used` bytes reach the budget.
export const textureScale = (pixelRatio, used) => used >= textureBudget ? 1 : Math.max(1, Math.min(3, Math.round(pixelRatio || 1)));

/// A loader of widget textures for the spec at `base` (`/s/P/NAME`): {load(id, version) → Promise
/// of an ImageBitmap, forget(id), requests (every fetch: {id, url, at}), used (bytes of the
/// pictures held, one per widget)}.
export function widgetTextures(base) {
  const held = new Map();
  const loader = { requests: [], used: 0 };
  const hold = (id, bytes) => {
    loader.used += bytes - (held.get(id) || 0);
    if (bytes) held.set(id, bytes); else held.delete(id);
  };
  loader.forget = (id) => hold(id, 0);
  // At most `inFlight` fetches at once: the budget sees each picture before the next is asked
  // for, and a phone's burst stays within what the server draws for one client.
  const waiting = [];
  let running = 0;
  const turn = () => running < inFlight ? (running++, Promise.resolve()) : new Promise((resolve) => waiting.push(resolve));
  const done = () => { const next = waiting.shift(); if (next) next(); else running--; };

  loader.load = async (id, version) => {
    await turn();
    try { return await fetchPicture(id, version); } finally { done(); }
  };

  /// The picture, asked again (up to 3 times, after the server's Retry-After) while the server is busy.
  async function fetchPicture(id, version) {
    const scale = textureScale(window.devicePixelRatio, loader.used - (held.get(id) || 0));
    // With the live rows of the datasets its charts follow (none for most widgets).
    const url = `${base}/widgets/${encodeURIComponent(id)}.png?scale=${scale}&v=${encodeURIComponent(version)}&rows=live`;
    for (let attempt = 1; ; attempt++) {
      loader.requests.push({ id, url, at: performance.timeOrigin + performance.now() });
      const response = await fetch(url);
      if ((response.status === 429 || response.status === 503) && attempt < 3) {
        const seconds = Math.min(5, Number(response.headers.get("Retry-After")) || 1);
        await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
        continue;
      }
      if (!response.ok) {
        let message = "HTTP " + response.status;
        try { message = (await response.json()).error.message || message; } catch (error) { /* not the API's shape */ }
        throw new Error(message);
      }
      const bitmap = await createImageBitmap(await response.blob(), { premultiplyAlpha: "premultiply", colorSpaceConversion: "none" });
      hold(id, Math.round(bitmap.width * bitmap.height * 4 * 4 / 3));  // with its mipmaps
      return bitmap;
    }
  }
  return loader;
}
