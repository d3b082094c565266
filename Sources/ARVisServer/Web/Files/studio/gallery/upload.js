// Uploads of 3D models with progress: XMLHttpRequest, whose upload reports progress (fetch's
// does not).

import { APIError, projectPath } from "../core/api.js";
import { session } from "../core/session.js";

/// The media type a model file is sent as, from its name.
export const modelType = (name) => /\.usdz$/i.test(name) ? "model/vnd.usdz+zip" : /\.glb$/i.test(name) ? "model/gltf-binary" : "application/octet-stream";

/// The asset name a file is given: its name without the .glb or .usdz extension.
export const assetName = (name) => name.replace(/\.(glb|usdz)$/i, "") || name;

/// Sends `file` as an asset of project `slug`; `onProgress(fraction)` as it goes. Resolves with the
/// created asset.
export function upload(slug, file, onProgress) {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open("POST", projectPath(slug, "assets") + "?name=" + encodeURIComponent(assetName(file.name)));
    if (session.token) request.setRequestHeader("Authorization", "Bearer " + session.token);
    request.setRequestHeader("Content-Type", modelType(file.name));
    request.upload.onprogress = (event) => { if (event.lengthComputable) onProgress(event.loaded / event.total); };
    request.onload = () => {
      let body = null;
      try { body = JSON.parse(request.responseText); } catch (error) { body = null; }
      if (request.status >= 200 && request.status < 300) resolve(body); else reject(new APIError(request.status, body));
    };
    request.onerror = () => reject(new APIError(0, { error: { message: "the upload was cut off" } }));
    request.send(file);
  });
}
