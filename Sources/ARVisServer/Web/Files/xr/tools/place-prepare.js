// What the Place tool reads before Enter AR (a session must be asked for in the tap on Enter AR,
// with the pictures it is to track): the spec's scene and its image targets' pictures.

import { fetchScene } from "../ar-scene.js";

/// What an image target's tracking was set up with: its picture and physical width.
export const pictureOf = (node) => `${node.asset} ${node.size[0]}`;

/// The scene at `base` (a spec's /s/P/NAME) and its trackable pictures: {scene, images, version}.
export async function preparePlace(base, version) {
  const scene = await fetchScene(`${base}/scene.json`);
  return { scene, images: await trackableImages(scene), version };
}

/// The image target pictures the browser may track: those on this server or in the spec
/// (`data:`); a picture elsewhere is not fetched, and its target is placed by a tap.
async function trackableImages(scene) {
  const images = [];
  for (const id of scene.images) {
    const node = scene.nodes.get(id), url = new URL(node.asset || "", location.href);
    if (url.protocol !== "data:" && url.origin !== location.origin) continue;
    try {
      const picture = new Image();
      picture.src = url.href;
      await picture.decode();
      if (!(node.size[0] > 0 && Number.isFinite(node.size[0]))) continue;  // a session refuses it
      images.push({ id, image: await createImageBitmap(picture), widthInMeters: node.size[0], picture: pictureOf(node) });
    } catch (error) { /* a picture that does not decode: placed by a tap */ }
  }
  return images;
}
