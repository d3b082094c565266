// The AR session's core, shared by every tool: the WebGL 2 layer, the reference space ("local-floor"
// where there is one), the viewer's hit test, the light probe, the tracked pictures' scores, and the
// little the tools ask of the session (where a tap's ray points, where a room point is on screen).

import { transformDirection, transformPoint } from "../viewer/matrix.js";
import { invert } from "./placement.js";
import { createQuadRenderer } from "./quad-renderer.js";

/// Whether a hit ({matrix}) is on level ground: its normal within about 25° of up.
export const isLevel = (hit) => !!hit && hit.matrix[5] > 0.9;

/// The session core every tool shares.
export async function sessionCore(session, { project, base, log, say, banner, $, now }) {
  const canvas = document.createElement("canvas");
  const gl = canvas.getContext("webgl2", { xrCompatible: true, alpha: true, antialias: false });
  await gl.makeXRCompatible();
  const layer = new XRWebGLLayer(session, gl);
  session.updateRenderState({ baseLayer: layer, depthNear: 0.01, depthFar: 1000 });
  const features = session.enabledFeatures || [];
  let space, floorSpace = true;
  try { space = await session.requestReferenceSpace("local-floor"); } catch (error) { space = await session.requestReferenceSpace("local"); floorSpace = false; }
  const viewerSpace = await session.requestReferenceSpace("viewer");
  const hitSource = await session.requestHitTestSource({ space: viewerSpace });
  const probe = features.includes("light-estimation") && session.requestLightProbe ? await session.requestLightProbe().catch(() => null) : null;
  const scores = features.includes("image-tracking") && session.getTrackedImageScores ? await session.getTrackedImageScores().catch(() => []) : [];
  const firstFrame = crypto.getRandomValues(new Uint32Array(1))[0] >>> 1;
  const ar = {
    session, gl, layer, space, hitSource, probe, features, trackedScores: scores, painter: createQuadRenderer(gl), project, base, log, say, banner, $, now,
    viewer: null, projection: null, hit: null, light: 1, lightDirection: [0.3, 0.9, 0.3], ended: false, lost: false, planes: [], groundHeight: null, floorSpace,
    // Pose packets' frame ids start at random, so two sessions in one room never name the same frame.
    firstFrame, frameId: firstFrame,
    lighting: () => ({ direction: ar.lightDirection, intensity: ar.light }),
    addPlane(plane) { ar.planes.push(plane); if (ar.share) ar.share.planes(ar.planes); },
    rayDirection(event) {
      const ray = event.frame.getPose(event.inputSource.targetRaySpace, ar.space);
      return ray ? [-ray.transform.matrix[8], -ray.transform.matrix[9], -ray.transform.matrix[10]] : [0, 0, -1];
    },
    /// A room point on the overlay, in CSS pixels, or null behind the viewer.
    toScreen(point) {
      const local = transformPoint(invert(ar.viewer), point), p = ar.projection;
      if (local[2] >= 0) return null;
      const x = p[0] * local[0] / -local[2] - p[8], y = p[5] * local[1] / -local[2] - p[9];
      return [(x + 1) / 2 * innerWidth, (1 - y) / 2 * innerHeight];
    },
  };
  return ar;
}

/// The first hit of the viewer's ray this frame: {result, matrix}, or null.
export function hitOf(ar, xrFrame) {
  const hits = xrFrame.getHitTestResults(ar.hitSource), pose = hits.length ? hits[0].getPose(ar.space) : null;
  return pose ? { result: hits[0], matrix: pose.transform.matrix } : null;
}

/// The light estimate, where the session has one: the brightest channel (clamped) and its direction.
export function readLight(ar, xrFrame) {
  if (!ar.probe || !xrFrame.getLightEstimate) return;
  const estimate = xrFrame.getLightEstimate(ar.probe);
  if (!estimate) return;
  const i = estimate.primaryLightIntensity, d = estimate.primaryLightDirection;
  ar.light = Math.min(1.5, Math.max(0.3, Math.max(i.x, i.y, i.z)));
  // The direction is in the probe's space: turned into the session's.
  const probe = xrFrame.getPose(ar.probe.probeSpace, ar.space), m = probe && probe.transform.matrix;
  if (m && Math.hypot(d.x, d.y, d.z) > 0) {
    ar.lightDirection = transformDirection(m, [d.x, d.y, d.z]);
  }
}

