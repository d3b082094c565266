// A scripted WebXR runtime for the phone page's check (Scripts/check_webxr.py); never shipped.
// Injected before the page's scripts (Playwright `add_init_script`), it implements the WebXR
// Device API surface the page uses (docs/webxr.md), exactly:
// navigator.xr, XRSession, reference spaces, XRWebGLLayer with a real camera-sized framebuffer on
// the page's own WebGL 2 context, XRFrame with viewer poses from a script, hit tests against a
// scripted floor (y = 0) and wall (z = −2, facing +z), image tracking, anchors, `select` from
// taps, light estimation, the DOM overlay, and raw camera access (`camera-access`, when configured
// with cameraAccess: true: each view has a `camera`, and XRWebGLBinding.getCameraImage gives a
// texture of the frame's scripted camera image, its origin at the bottom as GL's). The check drives it through `window.__xr`:
//
//   __xr.configure({supported, features, imageTracking, trackable, viewport: [w, h], pixelRatio,
//                   fovY (degrees), planes: [{point, normal}], localHeight, requireActivation,
//                   overlayInput, cameraAccess})   — in an init script after this one, so the page's first
//                   isSessionSupported sees it; viewport and pixelRatio are read at requestSession
//   __xr.setViewer({position: [x, y, z], orientation: [x, y, z, w]} | null)   (null: tracking lost)
//   __xr.setEmulated(bool)    the viewer pose's emulatedPosition from now on (positional tracking lost)
//   __xr.setImage(index, {position, orientation, state?, measuredWidthInMeters?} | null)
//   __xr.setLight({direction: [x, y, z], intensity: [r, g, b], sphericalHarmonics: [27]})
//   __xr.tap(x, y)            → {dispatched, reason?, origin?, direction?}  (CSS px of the view)
//   __xr.frame()              → milliseconds the page's XR frame callbacks took (0: no frame ran)
//   __xr.autoFrames(on)       frames driven by window.requestAnimationFrame
//   __xr.readPixels(x, y, w, h, encoding?)  the layer's RGBA bytes, rows from the BOTTOM (WebGL's
//                             origin); encoding "base64" gives a string, else a Uint8Array
//   __xr.projection()         → {matrix, viewMatrix, viewport, cssViewport, pixelRatio, fovY, near, far, viewer}
//   __xr.project([x, y, z])   → {x, y (framebuffer px, bottom-left), cssX, cssY (top-left), depth} | null
//   __xr.session              the live XRSession or null; __xr.sessionCount, __xr.frameCount, __xr.requested,
//   __xr.anchors(), __xr.moveAnchors(pose), __xr.setVisibility(state), __xr.endSession(), __xr.math
//   __xr.setOrigin({position, orientation} | null)  where the NEXT session's origin ("local-floor";
//                             "local" above it) stands in the world: a session starts wherever the
//                             device is, so every other pose the page gets is relative to it
//   __xr.setImage(index, {…, noise})   noise: metres of scatter of each of the picture's corners,
//                             drawn afresh every frame, the pose fitted to them (seeded: configure({seed}))
//   __xr.setGeo({latitude, longitude, accuracy} | null)   what navigator.geolocation answers
//   configure({north, compassNoise})   the heading (degrees clockwise from north) of the world's −z:
//                             with it, every frame fires `deviceorientationabsolute` with the viewer's
//                             W3C angles, its heading off by a normal draw of `compassNoise` degrees
//   configure({persistentAnchors: N})  anchors get requestPersistentHandle (refused once N handles
//                             are kept) and sessions restorePersistentAnchor / deletePersistentAnchor /
//                             persistentAnchors; kept handles outlive sessions (not the page)
//
// Conventions (WebXR's): matrices are Float32Array(16), column-major; a hit pose's +Y is the
// surface normal, its +Z points along the surface towards where the ray came from (ARCore's);
// target rays point along their space's −Z; a tracked image's space has +Y out of the picture,
// +X to its right, +Z to its bottom. "local-floor" is the runtime's world (floor at y = 0);
// "local" is the same frame raised by `localHeight` (0 unless configured). With dom-overlay, only
// the overlay root is visible during the session (the rest of the document is hidden), and taps
// on its elements fire `beforexrselect` and, unless cancelled, a select (`overlayInput`).

(function install(global) {
  "use strict";

  // --- Pure math (exported as __xr.math for the unit tests) -----------------------------------

  const add = (a, b) => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
  const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
  const scale = (a, k) => [a[0] * k, a[1] * k, a[2] * k];
  const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
  const length = (a) => Math.hypot(a[0], a[1], a[2]);
  const normalize = (a) => { const l = length(a); return l > 0 ? scale(a, 1 / l) : [0, 0, 0]; };

  /// A unit quaternion [x, y, z, w] (w ≥ 0 not enforced); throws for a zero one.
  function quatNormalize(q) {
    const l = Math.hypot(q[0], q[1], q[2], q[3]);
    if (!(l > 0) || !isFinite(l)) throw new RangeError("an orientation of zero length");
    return [q[0] / l, q[1] / l, q[2] / l, q[3] / l];
  }

  /// The Hamilton product a·b (b's turn first, then a's).
  function quatMultiply(a, b) {
    return [a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1], a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
      a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3], a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2]];
  }

  const quatConjugate = (q) => [-q[0], -q[1], -q[2], q[3]];

  /// `v` turned by the unit quaternion `q`.
  function quatRotate(q, v) {
    const t = scale(cross(q, v), 2);
    return add(add(v, scale(t, q[3])), cross(q, t));
  }

  /// The unit quaternion of the rotation whose matrix has columns x, y, z (orthonormal, right-handed).
  function quatFromBasis(x, y, z) {
    const m00 = x[0], m11 = y[1], m22 = z[2], trace = m00 + m11 + m22;
    let q;
    if (trace > 0) {
      const s = Math.sqrt(trace + 1) * 2;
      q = [(y[2] - z[1]) / s, (z[0] - x[2]) / s, (x[1] - y[0]) / s, s / 4];
    } else if (m00 > m11 && m00 > m22) {
      const s = Math.sqrt(1 + m00 - m11 - m22) * 2;
      q = [s / 4, (y[0] + x[1]) / s, (z[0] + x[2]) / s, (y[2] - z[1]) / s];
    } else if (m11 > m22) {
      const s = Math.sqrt(1 + m11 - m00 - m22) * 2;
      q = [(y[0] + x[1]) / s, s / 4, (z[1] + y[2]) / s, (z[0] - x[2]) / s];
    } else {
      const s = Math.sqrt(1 + m22 - m00 - m11) * 2;
      q = [(z[0] + x[2]) / s, (z[1] + y[2]) / s, s / 4, (x[1] - y[0]) / s];
    }
    return quatNormalize(q);
  }

  /// The 4×4 column-major matrix (plain array) of the rigid pose {p, q}.
  function rigidMatrix(p, q) {
    const [x, y, z, w] = q;
    return [1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w), 0,
      2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w), 0,
      2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y), 0,
      p[0], p[1], p[2], 1];
  }

  /// The inverse of the rigid pose {p, q}: {p: −(q⁻¹ p), q: q⁻¹}.
  function rigidInverse(pose) {
    const q = quatConjugate(pose.q);
    return { p: scale(quatRotate(q, pose.p), -1), q };
  }

  /// The pose `b` expressed in `a`'s parent: a ∘ b.
  const compose = (a, b) => ({ p: add(a.p, quatRotate(a.q, b.p)), q: quatNormalize(quatMultiply(a.q, b.q)) });

  /// The pose of `pose` (in the world) relative to `base` (in the world).
  const relative = (base, pose) => compose(rigidInverse(base), pose);

  /// OpenGL's perspective projection (column-major) for a vertical field of view `fovY` (radians),
  /// `aspect` = width / height, and the depth range near…far.
  function perspective(fovY, aspect, near, far) {
    const f = 1 / Math.tan(fovY / 2), range = 1 / (near - far);
    return [f / aspect, 0, 0, 0, 0, f, 0, 0, 0, 0, (far + near) * range, -1, 0, 0, 2 * far * near * range, 0];
  }

  /// Where the ray origin + t·direction meets the plane {point, normal}: t > 0, or null (parallel
  /// or behind the origin).
  function rayPlane(origin, direction, plane) {
    const denominator = dot(plane.normal, direction);
    if (Math.abs(denominator) < 1e-12) return null;
    const t = dot(plane.normal, sub(plane.point, origin)) / denominator;
    return t > 1e-9 ? t : null;
  }

  /// The first of `planes` the ray meets: {t, point, normal, plane (its index)}, or null.
  function firstHit(origin, direction, planes) {
    const d = normalize(direction);
    let best = null;
    planes.forEach((plane, index) => {
      const t = rayPlane(origin, d, plane);
      if (t !== null && (!best || t < best.t)) best = { t, point: add(origin, scale(d, t)), normal: normalize(plane.normal), plane: index };
    });
    return best;
  }

  /// A hit's orientation: +Y the surface normal `normal`, +Z along the surface towards where the
  /// ray (`direction`) came from, +X = Y × Z.
  function surfaceOrientation(normal, direction) {
    const y = normalize(normal), back = scale(normalize(direction), -1);
    let z = sub(back, scale(y, dot(back, y)));
    // Straight at the surface: its "down" (on a wall), else the world's +Z (on a floor).
    if (length(z) < 1e-6) z = Math.abs(y[1]) < 0.9 ? sub([0, -1, 0], scale(y, -y[1])) : sub([0, 0, 1], scale(y, y[2]));
    z = normalize(z);
    return quatFromBasis(cross(y, z), y, z);
  }

  /// The orientation (in its own frame's terms) of a ray along `direction`: its −Z on the ray, its
  /// +X level (perpendicular to `up`) where it can be.
  function rayOrientation(direction, up) {
    const z = scale(normalize(direction), -1);
    let x = cross(up || [0, 1, 0], z);
    if (length(x) < 1e-9) x = cross([0, 0, 1], z);
    x = normalize(x);
    return quatFromBasis(x, cross(z, x), z);
  }

  /// The direction, in the viewer's frame, of the ray through CSS pixel (x, y) of a `viewport`
  /// ([w, h]) seen with the vertical field of view `fovY` (radians).
  function tapDirection(x, y, viewport, fovY) {
    const t = Math.tan(fovY / 2), aspect = viewport[0] / viewport[1];
    return normalize([(2 * x / viewport[0] - 1) * t * aspect, (1 - 2 * y / viewport[1]) * t, -1]);
  }

  /// A column-major 4×4 times a point (x, y, z, 1): [x, y, z, w].
  function transform4(m, p) {
    const out = [0, 0, 0, 0];
    for (let r = 0; r < 4; r++) out[r] = m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r];
    return out;
  }

  /// A seeded uniform generator in [0, 1) (mulberry32) and a normal draw from it.
  function seeded(seed) {
    let a = seed >>> 0;
    return () => {
      a = (a + 0x6D2B79F5) >>> 0;
      let t = Math.imul(a ^ (a >>> 15), 1 | a);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }
  const gaussian = (random) => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());

  /// The W3C DeviceOrientation angles (alpha, beta, gamma, degrees; Z-X'-Y'' intrinsic, Earth's
  /// frame x east, y north, z up) of a device whose pose in the world is `q`, the world's −z
  /// heading `north` degrees clockwise from north.
  function deviceAngles(q, north) {
    const h = north * Math.PI / 180, ch = Math.cos(h), sh = Math.sin(h);
    const toEarth = (v) => [v[0] * ch - v[2] * sh, -v[0] * sh - v[2] * ch, v[1]];
    const x = toEarth(quatRotate(q, [1, 0, 0])), y = toEarth(quatRotate(q, [0, 1, 0])), z = toEarth(quatRotate(q, [0, 0, 1]));
    // R = [x y z] = Rz(α)·Rx(β)·Ry(γ): R21 = sin β, R01 = −sin α cos β, R11 = cos α cos β, R20 = −cos β sin γ, R22 = cos β cos γ.
    const beta = Math.asin(Math.max(-1, Math.min(1, y[2])));
    let alpha, gamma;
    if (Math.cos(beta) > 1e-6) { alpha = Math.atan2(-y[0], y[1]); gamma = Math.atan2(-x[2], z[2]); }
    else { alpha = Math.atan2(x[1], x[0]); gamma = 0; }
    const degrees = (angle) => angle * 180 / Math.PI;
    return { alpha: (degrees(alpha) + 360) % 360, beta: degrees(beta), gamma: degrees(gamma) };
  }

  const math = { seeded, gaussian, deviceAngles, add, sub, dot, cross, normalize, quatNormalize, quatMultiply, quatConjugate, quatRotate, quatFromBasis,
    rigidMatrix, rigidInverse, compose, relative, perspective, rayPlane, firstHit, surfaceOrientation, rayOrientation,
    tapDirection, transform4 };

  // --- WebXR objects ----------------------------------------------------------------------------

  const secret = Symbol("xr-runtime");
  const identity = () => ({ p: [0, 0, 0], q: [0, 0, 0, 1] });
  const domException = (name, message) => new global.DOMException(message, name);
  const illegal = (token) => { if (token !== secret) throw new TypeError("Illegal constructor"); };

  /// A DOMPointReadOnly where there is one, else a frozen look-alike (Node's tests).
  function point(x, y, z, w) {
    if (typeof global.DOMPointReadOnly === "function") return new global.DOMPointReadOnly(x, y, z, w);
    return Object.freeze({ x, y, z, w, toJSON() { return { x, y, z, w }; } });
  }

  /// Adds `on<type>` attributes to a class of EventTarget for `types`.
  function eventHandlers(target, types) {
    for (const type of types) {
      const key = Symbol(type);
      Object.defineProperty(target.prototype, "on" + type, {
        configurable: true,
        get() { return this[key] || null; },
        set(handler) {
          if (this[key]) this.removeEventListener(type, this[key]);
          this[key] = typeof handler === "function" ? handler : null;
          if (this[key]) this.addEventListener(type, this[key]);
        },
      });
    }
  }

  /// A rigid pose: position, unit orientation, its column-major matrix and its inverse.
  class XRRigidTransform {
    /// `position` ({x, y, z, w = 1}) and `orientation` ({x, y, z, w}, normalised here).
    constructor(position, orientation) {
      const p = position || {}, o = orientation || {};
      if (p.w !== undefined && p.w !== 1) throw new TypeError("XRRigidTransform: position.w must be 1");
      const q = quatNormalize([o.x || 0, o.y || 0, o.z || 0, o.w === undefined ? 1 : o.w]);
      this._pose = { p: [p.x || 0, p.y || 0, p.z || 0], q };
      this._position = point(this._pose.p[0], this._pose.p[1], this._pose.p[2], 1);
      this._orientation = point(q[0], q[1], q[2], q[3]);
      this._matrix = null;
      this._inverse = null;
    }

    get position() { return this._position; }
    get orientation() { return this._orientation; }
    get matrix() { return this._matrix || (this._matrix = new Float32Array(rigidMatrix(this._pose.p, this._pose.q))); }
    get inverse() {
      if (!this._inverse) {
        this._inverse = fromPose(rigidInverse(this._pose));
        this._inverse._inverse = this;
      }
      return this._inverse;
    }
  }

  /// An XRRigidTransform of the internal pose {p, q}.
  const fromPose = (pose) => new XRRigidTransform({ x: pose.p[0], y: pose.p[1], z: pose.p[2] }, { x: pose.q[0], y: pose.q[1], z: pose.q[2], w: pose.q[3] });
  /// The internal pose of {position: [x, y, z], orientation: [x, y, z, w]}.
  const poseOf = (init) => ({ p: (init.position || [0, 0, 0]).slice(0, 3).map(Number), q: quatNormalize((init.orientation || [0, 0, 0, 1]).map(Number)) });

  /// A space whose origin the runtime locates per frame (`_locate(state)` → world pose or null).
  class XRSpace extends global.EventTarget {
    constructor(token, session, locate) {
      illegal(token);
      super();
      this._session = session;
      this._locate = locate; // (frame state) → the space's world pose, or null
    }
  }

  /// "viewer", "local" or "local-floor" (requestReferenceSpace).
  class XRReferenceSpace extends XRSpace {
    /// A space whose origin is this one's moved by `originOffset` (an XRRigidTransform).
    getOffsetReferenceSpace(originOffset) {
      const offset = originOffset._pose, base = this._locate;
      return new XRReferenceSpace(secret, this._session, (state) => { const pose = base(state); return pose && compose(pose, offset); });
    }
  }
  eventHandlers(XRReferenceSpace, ["reset"]);

  /// A space's pose in a base space, at a frame's time.
  class XRPose {
    constructor(token, pose) {
      illegal(token);
      this.transform = fromPose(pose);
      this.emulatedPosition = false;
      this.linearVelocity = null;
      this.angularVelocity = null;
    }
  }

  /// The one view of a handheld AR device: the whole camera, projected with `projectionMatrix`.
  class XRView {
    constructor(token, session, pose, projection) {
      illegal(token);
      this._session = session;
      this.eye = "none";
      this.projectionMatrix = new Float32Array(projection);
      this.transform = fromPose(pose);
      this.recommendedViewportScale = null;
      this.isFirstPersonObserver = false;
      if (session._enabled.includes("camera-access")) {
        this.camera = new XRCamera(secret, Math.round(session._viewport[0] * session._pixelRatio), Math.round(session._viewport[1] * session._pixelRatio));
      }
    }

    requestViewportScale() { /* one fixed viewport */ }
  }

  /// The camera behind a view (raw camera access): its image's size in pixels.
  class XRCamera {
    constructor(token, width, height) { illegal(token); this.width = width; this.height = height; }
  }

  /// A session's camera images as WebGL textures, for `camera-access`. The image of a frame is a
  /// picture the runtime draws (a gradient with the frame's number), the view's size.
  class XRWebGLBinding {
    constructor(session, context) {
      if (!(session instanceof XRSession)) throw new TypeError("XRWebGLBinding needs an XRSession");
      if (!context || context.isContextLost()) throw domException("InvalidStateError", "the WebGL context is lost");
      this._session = session;
      this._gl = context;
      this._texture = null;
      this._frame = -1;
    }

    getCameraImage(camera) {
      if (!(camera instanceof XRCamera)) throw new TypeError("getCameraImage needs an XRCamera");
      if (!this._session._enabled.includes("camera-access")) throw domException("NotSupportedError", "camera-access is not enabled");
      if (!this._session._inFrame) throw domException("InvalidStateError", "a camera image is given inside an XR frame only");
      const gl = this._gl;
      if (this._frame !== runtime.frameCount) {
        this._frame = runtime.frameCount;
        const canvas = this._canvas || (this._canvas = new OffscreenCanvas(camera.width, camera.height));
        const g = canvas.getContext("2d");
        const gradient = g.createLinearGradient(0, 0, camera.width, camera.height);
        gradient.addColorStop(0, "#3a4a5a"); gradient.addColorStop(1, "#8a7a5a");
        g.fillStyle = gradient; g.fillRect(0, 0, camera.width, camera.height);
        g.fillStyle = "#fff"; g.font = "48px sans-serif"; g.fillText("camera " + runtime.frameCount, 24, 72);
        const previous = gl.getParameter(gl.TEXTURE_BINDING_2D), flip = gl.getParameter(gl.UNPACK_FLIP_Y_WEBGL);
        if (!this._texture) this._texture = gl.createTexture();
        gl.bindTexture(gl.TEXTURE_2D, this._texture);
        gl.pixelStorei(gl.UNPACK_FLIP_Y_WEBGL, true);
        gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, gl.RGBA, gl.UNSIGNED_BYTE, canvas);
        gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR);
        gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
        gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
        gl.pixelStorei(gl.UNPACK_FLIP_Y_WEBGL, flip);
        gl.bindTexture(gl.TEXTURE_2D, previous);
      }
      return this._texture;
    }
  }

  /// The viewer's pose with its one view.
  class XRViewerPose extends XRPose {
    constructor(token, session, pose, projection) {
      super(token, pose);
      this.views = Object.freeze([new XRView(secret, session, pose, projection)]);
    }
  }

  /// A subscription to hit tests along a space's −Z, against the scripted planes, every frame.
  class XRHitTestSource {
    constructor(token, session, space) {
      illegal(token);
      this._session = session;
      this._space = space;
    }

    cancel() {
      if (!this._session._hitSources.delete(this)) throw domException("InvalidStateError", "this hit test source was cancelled already");
    }
  }

  /// One hit, valid while its frame is active.
  class XRHitTestResult {
    constructor(token, frame, pose) {
      illegal(token);
      this._frame = frame;
      this._pose = pose;
    }

    getPose(baseSpace) {
      requireActive(this._frame, "XRHitTestResult.getPose");
      return this._frame._poseOf({ _locate: () => this._pose }, baseSpace);
    }

    createAnchor() {
      return this._frame._anchorAt(() => this._pose);
    }
  }

  /// A pose the device keeps (at the world pose it was made at, unless moveAnchors drifts it).
  class XRAnchor {
    constructor(token, session, pose) {
      illegal(token);
      this._session = session;
      this._pose = pose;
      this._deleted = false;
      this.anchorSpace = new XRSpace(secret, session, () => (this._deleted ? null : this._pose));
      if (session._persistent) this.requestPersistentHandle = () => persist(this);
    }

    delete() {
      this._deleted = true;
      this._session._anchors.delete(this);
      const pending = this._session._newAnchors.get(this);
      if (pending) { this._session._newAnchors.delete(this); pending.reject(domException("InvalidStateError", "the anchor was deleted")); }
    }
  }

  /// A handle for `anchor` that outlives its session, unless `persistentAnchors` handles are kept.
  function persist(anchor) {
    if (anchor._deleted || anchor._session._ended) return Promise.reject(domException("InvalidStateError", "requestPersistentHandle: the anchor is gone"));
    if (anchor._handle) return Promise.resolve(anchor._handle);
    if (runtime.persisted.size >= runtime.config.persistentAnchors) {
      return Promise.reject(domException("NotAllowedError", `this device keeps at most ${runtime.config.persistentAnchors} persistent anchor(s)`));
    }
    anchor._handle = global.crypto.randomUUID();
    runtime.persisted.set(anchor._handle, anchor._pose);
    return Promise.resolve(anchor._handle);
  }

  /// Gives `session` the persistent-anchor methods of the anchors module.
  function persistentMethods(session) {
    session._persistent = true;
    session.restorePersistentAnchor = (handle) => {
      const pose = runtime.persisted.get(handle);
      if (session._ended) return Promise.reject(domException("InvalidStateError", "the session ended"));
      if (!pose) return Promise.reject(domException("InvalidStateError", "no persistent anchor " + handle));
      const anchor = new XRAnchor(secret, session, pose);
      anchor._handle = handle;
      session._anchors.add(anchor);
      runtime.anchors.push(anchor);
      return new Promise((resolve, reject) => session._newAnchors.set(anchor, { resolve, reject }));
    };
    session.deletePersistentAnchor = (handle) => runtime.persisted.delete(handle) ? Promise.resolve() : Promise.reject(domException("InvalidStateError", "no persistent anchor " + handle));
    Object.defineProperty(session, "persistentAnchors", { get: () => Object.freeze([...runtime.persisted.keys()]) });
  }

  /// A transient screen touch: its target ray goes from the viewer through the touched pixel.
  class XRInputSource {
    constructor(token, session, pose) {
      illegal(token);
      this.handedness = "none";
      this.targetRayMode = "screen";
      this.targetRaySpace = new XRSpace(secret, session, () => pose);
      this.gripSpace = null;
      this.profiles = Object.freeze(["generic-touchscreen"]);
      this.gamepad = null;
      this.hand = null;
    }
  }

  /// The light probe of light-estimation; its estimate is what setLight scripted.
  class XRLightProbe extends global.EventTarget {
    constructor(token, session) {
      illegal(token);
      super();
      this.probeSpace = new XRSpace(secret, session, () => identity());
    }
  }
  eventHandlers(XRLightProbe, ["reflectionchange"]);

  class XRLightEstimate {
    constructor(token, light) {
      illegal(token);
      const d = normalize(light.direction);
      this.sphericalHarmonicsCoefficients = new Float32Array(light.sphericalHarmonics);
      this.primaryLightDirection = point(d[0], d[1], d[2], 0);
      this.primaryLightIntensity = point(light.intensity[0], light.intensity[1], light.intensity[2], 1);
    }
  }

  class XRImageTrackingResult {
    constructor(token, fields) {
      illegal(token);
      Object.assign(this, fields);
    }
  }

  class XRViewport {
    constructor(token, width, height) {
      illegal(token);
      Object.assign(this, { x: 0, y: 0, width, height });
    }
  }

  class XRRenderState {
    constructor(token, state) {
      illegal(token);
      Object.assign(this, state);
    }
  }

  class XRSessionEvent extends global.Event {
    constructor(type, init) { super(type, init); this.session = init && init.session; }
  }

  class XRInputSourceEvent extends global.Event {
    constructor(type, init) { super(type, init); this.frame = init.frame; this.inputSource = init.inputSource; }
  }

  class XRInputSourcesChangeEvent extends global.Event {
    constructor(type, init) { super(type, init); this.session = init.session; this.added = init.added; this.removed = init.removed; }
  }

  /// Throws InvalidStateError when `frame` is not active (outside its callbacks or event).
  function requireActive(frame, what) {
    if (!frame._active) throw domException("InvalidStateError", what + ": the XRFrame is not active (used outside its requestAnimationFrame callback or input event)");
  }

  /// A frame: the world as scripted when it was made, active only during its callbacks or event.
  class XRFrame {
    constructor(token, session, state, animationFrame) {
      illegal(token);
      this.session = session;
      this._state = state; // {viewer, emulated, images, time}
      this._active = true;
      this._animationFrame = animationFrame;
      this._hits = new Map();
      this.trackedAnchors = new Set(session._anchors);
      this.predictedDisplayTime = state.time;
    }

    /// An XRPose of `space` in `baseSpace`, or null when either is not located.
    _poseOf(space, baseSpace) {
      if (!baseSpace || typeof baseSpace._locate !== "function") throw new TypeError("not an XRSpace");
      const pose = space._locate(this._state), base = baseSpace._locate(this._state);
      return pose && base ? new XRPose(secret, relative(base, pose)) : null;
    }

    getViewerPose(referenceSpace) {
      if (!this._animationFrame) throw domException("InvalidStateError", "getViewerPose: not an animation frame");
      requireActive(this, "getViewerPose");
      if (!(referenceSpace instanceof XRReferenceSpace)) throw new TypeError("getViewerPose needs an XRReferenceSpace");
      const base = referenceSpace._locate(this._state);
      if (!this._state.viewer || !base) return null;
      const pose = new XRViewerPose(secret, this.session, relative(base, this._state.viewer), this.session._projection());
      // Positional tracking lost: the device still turns the view, and says its position is a guess.
      pose.emulatedPosition = !!this._state.emulated;
      return pose;
    }

    getPose(space, baseSpace) {
      requireActive(this, "getPose");
      if (!space || typeof space._locate !== "function") throw new TypeError("getPose needs an XRSpace");
      return this._poseOf(space, baseSpace);
    }

    getHitTestResults(source) {
      requireActive(this, "getHitTestResults");
      if (!this._hits.has(source)) throw domException("InvalidStateError", "getHitTestResults: no results for this source in this frame");
      return this._hits.get(source).slice();
    }

    /// An anchor at the world pose `locate()` gives now (resolved on the next animation frame).
    _anchorAt(locate) {
      const session = this.session;
      if (!this._active) return Promise.reject(domException("InvalidStateError", "createAnchor: the XRFrame is not active"));
      if (!session._enabled.includes("anchors")) return Promise.reject(domException("NotSupportedError", "createAnchor: the anchors feature is not enabled"));
      if (session._ended) return Promise.reject(domException("InvalidStateError", "createAnchor: the session ended"));
      const pose = locate();
      if (!pose) return Promise.reject(domException("InvalidStateError", "createAnchor: the space is not located"));
      const anchor = new XRAnchor(secret, session, pose);
      session._anchors.add(anchor);
      runtime.anchors.push(anchor);
      return new Promise((resolve, reject) => session._newAnchors.set(anchor, { resolve, reject }));
    }

    createAnchor(pose, space) {
      if (!(pose instanceof XRRigidTransform)) return Promise.reject(new TypeError("createAnchor needs an XRRigidTransform"));
      return this._anchorAt(() => { const base = space && space._locate(this._state); return base && compose(base, pose._pose); });
    }

    getImageTrackingResults() {
      if (!this.session._enabled.includes("image-tracking")) throw domException("NotSupportedError", "image-tracking is not enabled");
      requireActive(this, "getImageTrackingResults");
      const results = [];
      this.session._trackedImages.forEach((image, index) => {
        const seen = this._state.images[index];
        if (!seen || image.score !== "trackable") return;
        results.push(new XRImageTrackingResult(secret, { index, imageSpace: image.space, trackingState: seen.state || "tracked",
          measuredWidthInMeters: seen.measuredWidthInMeters || image.widthInMeters }));
      });
      return Object.freeze(results);
    }

    getLightEstimate(probe) {
      requireActive(this, "getLightEstimate");
      if (!(probe instanceof XRLightProbe)) throw new TypeError("getLightEstimate needs an XRLightProbe");
      return new XRLightEstimate(secret, runtime.light);
    }
  }

  /// The layer the page draws into: a real framebuffer of its WebGL context, camera-sized.
  class XRWebGLLayer {
    constructor(session, context, init) {
      if (!(session instanceof XRSession)) throw new TypeError("XRWebGLLayer needs an XRSession");
      if (session._ended) throw domException("InvalidStateError", "the session ended");
      if (!context || context.isContextLost()) throw domException("InvalidStateError", "the WebGL context is lost");
      const attributes = context.getContextAttributes() || {};
      if (!compatible.has(context) && !attributes.xrCompatible) throw domException("InvalidStateError", "the WebGL context is not XR compatible");
      const options = Object.assign({ antialias: true, depth: true, stencil: false, alpha: true, ignoreDepthValues: false, framebufferScaleFactor: 1 }, init);
      this._session = session;
      this._gl = context;
      this.antialias = false; // a single-sampled framebuffer, so the check reads what was drawn
      this.ignoreDepthValues = true;
      this.fixedFoveation = null;
      this.framebufferWidth = Math.max(1, Math.round(session._viewport[0] * session._pixelRatio * options.framebufferScaleFactor));
      this.framebufferHeight = Math.max(1, Math.round(session._viewport[1] * session._pixelRatio * options.framebufferScaleFactor));
      this.framebuffer = createFramebuffer(context, this.framebufferWidth, this.framebufferHeight, options);
    }

    getViewport(view) {
      if (!(view instanceof XRView) || view._session !== this._session) throw domException("InvalidStateError", "getViewport: a view of another session");
      return new XRViewport(secret, this.framebufferWidth, this.framebufferHeight);
    }

    static getNativeFramebufferScaleFactor() { return 1; }
  }

  /// A framebuffer of `gl` with an RGBA8 colour renderbuffer and a depth (and stencil) one, bindings restored.
  function createFramebuffer(gl, width, height, options) {
    const previousFramebuffer = gl.getParameter(gl.FRAMEBUFFER_BINDING), previousRenderbuffer = gl.getParameter(gl.RENDERBUFFER_BINDING);
    const framebuffer = gl.createFramebuffer(), color = gl.createRenderbuffer(), depth = gl.createRenderbuffer();
    gl.bindFramebuffer(gl.FRAMEBUFFER, framebuffer);
    gl.bindRenderbuffer(gl.RENDERBUFFER, color);
    gl.renderbufferStorage(gl.RENDERBUFFER, gl.RGBA8, width, height);
    gl.framebufferRenderbuffer(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.RENDERBUFFER, color);
    gl.bindRenderbuffer(gl.RENDERBUFFER, depth);
    gl.renderbufferStorage(gl.RENDERBUFFER, gl.DEPTH24_STENCIL8, width, height);
    gl.framebufferRenderbuffer(gl.FRAMEBUFFER, options.stencil ? gl.DEPTH_STENCIL_ATTACHMENT : gl.DEPTH_ATTACHMENT, gl.RENDERBUFFER, depth);
    const status = gl.checkFramebufferStatus(gl.FRAMEBUFFER);
    gl.bindFramebuffer(gl.FRAMEBUFFER, previousFramebuffer);
    gl.bindRenderbuffer(gl.RENDERBUFFER, previousRenderbuffer);
    if (status !== gl.FRAMEBUFFER_COMPLETE) throw domException("OperationError", "the layer's framebuffer is incomplete (" + status + ")");
    layerBuffers.set(framebuffer, [color, depth]);
    return framebuffer;
  }

  /// Clears the layer's framebuffer to transparent black and depth 1, leaving the page's GL state as it was.
  function clearLayer(layer) {
    const gl = layer._gl;
    const saved = { framebuffer: gl.getParameter(gl.DRAW_FRAMEBUFFER_BINDING), scissor: gl.isEnabled(gl.SCISSOR_TEST), color: gl.getParameter(gl.COLOR_CLEAR_VALUE),
      depth: gl.getParameter(gl.DEPTH_CLEAR_VALUE), stencil: gl.getParameter(gl.STENCIL_CLEAR_VALUE), colorMask: gl.getParameter(gl.COLOR_WRITEMASK),
      depthMask: gl.getParameter(gl.DEPTH_WRITEMASK), stencilMask: gl.getParameter(gl.STENCIL_WRITEMASK) };
    gl.bindFramebuffer(gl.DRAW_FRAMEBUFFER, layer.framebuffer);
    gl.disable(gl.SCISSOR_TEST);
    gl.colorMask(true, true, true, true);
    gl.depthMask(true);
    gl.stencilMask(0xffffffff);
    gl.clearColor(0, 0, 0, 0);
    gl.clearDepth(1);
    gl.clearStencil(0);
    gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT | gl.STENCIL_BUFFER_BIT);
    gl.bindFramebuffer(gl.DRAW_FRAMEBUFFER, saved.framebuffer);
    if (saved.scissor) gl.enable(gl.SCISSOR_TEST);
    gl.colorMask(...saved.colorMask);
    gl.depthMask(saved.depthMask);
    gl.stencilMask(saved.stencilMask);
    gl.clearColor(...saved.color);
    gl.clearDepth(saved.depth);
    gl.clearStencil(saved.stencil);
  }

  /// An immersive-ar session with the features granted.
  class XRSession extends global.EventTarget {
    constructor(token, init) {
      illegal(token);
      super();
      Object.assign(this, {
        _enabled: init.enabled, _ended: false, _hitSources: new Set(), _anchors: new Set(), _newAnchors: new Map(),
        _callbacks: [], _nextHandle: 1, _cancelled: new Set(), _pending: null, _viewport: init.viewport, _pixelRatio: init.pixelRatio,
        _overlay: init.overlay, _trackedImages: init.trackedImages, _inputSources: [], _origin: runtime.origin || identity(),
        _renderState: { depthNear: 0.1, depthFar: 1000, inlineVerticalFieldOfView: null, baseLayer: null, layers: [] },
      });
      this._trackedImages.forEach((image, index) => {
        image.space = new XRSpace(secret, this, (state) => { const seen = state.images[index]; return seen ? seen.pose : null; });
      });
      this.visibilityState = "visible";
      this.environmentBlendMode = "alpha-blend";
      this.interactionMode = "screen-space";
      this.domOverlayState = init.overlay ? Object.freeze({ type: "screen" }) : null;
      this.enabledFeatures = Object.freeze(init.enabled.slice());
    }

    get renderState() { return new XRRenderState(secret, this._renderState); }
    get inputSources() { return Object.freeze(this._inputSources.slice()); }

    /// The projection of the one view (near and far from the render state, as the spec has it).
    _projection() {
      return perspective(runtime.config.fovY * Math.PI / 180, this._viewport[0] / this._viewport[1], this._renderState.depthNear, this._renderState.depthFar);
    }

    updateRenderState(state) {
      if (this._ended) throw domException("InvalidStateError", "updateRenderState: the session ended");
      const next = state || {};
      if (next.baseLayer && next.baseLayer._session !== this) throw domException("InvalidStateError", "updateRenderState: a layer of another session");
      if (next.inlineVerticalFieldOfView !== undefined && next.inlineVerticalFieldOfView !== null) throw domException("InvalidStateError", "inlineVerticalFieldOfView is for inline sessions");
      this._pending = Object.assign(this._pending || {}, next);
    }

    requestReferenceSpace(type) {
      if (this._ended) return Promise.reject(domException("InvalidStateError", "the session ended"));
      const origin = this._origin;
      const locate = {
        viewer: (state) => state.viewer,
        local: () => compose(origin, { p: [0, runtime.config.localHeight, 0], q: [0, 0, 0, 1] }),
        "local-floor": () => origin,
      }[type];
      if (!locate || (type === "local-floor" && !this._enabled.includes("local-floor"))) {
        return Promise.reject(domException("NotSupportedError", `the reference space "${type}" is not supported`));
      }
      return Promise.resolve(new XRReferenceSpace(secret, this, locate));
    }

    requestHitTestSource(options) {
      if (!this._enabled.includes("hit-test")) return Promise.reject(domException("NotSupportedError", "hit-test is not enabled"));
      if (this._ended) throw domException("InvalidStateError", "the session ended");
      if (!options || !options.space || typeof options.space._locate !== "function") return Promise.reject(new TypeError("requestHitTestSource needs {space}"));
      const source = new XRHitTestSource(secret, this, options.space);
      source._offsetRay = options.offsetRay || null;
      this._hitSources.add(source);
      return Promise.resolve(source);
    }

    requestAnimationFrame(callback) {
      if (this._ended) return 0;
      const handle = this._nextHandle++;
      this._callbacks.push({ handle, callback });
      return handle;
    }

    cancelAnimationFrame(handle) {
      this._callbacks = this._callbacks.filter((entry) => entry.handle !== handle);
      this._cancelled.add(handle);
    }

    getTrackedImageScores() {
      if (!this._enabled.includes("image-tracking")) return Promise.reject(domException("NotSupportedError", "image-tracking is not enabled"));
      return Promise.resolve(Object.freeze(this._trackedImages.map((image) => image.score)));
    }

    requestLightProbe() {
      if (!this._enabled.includes("light-estimation")) return Promise.reject(domException("NotSupportedError", "light-estimation is not enabled"));
      if (this._ended) return Promise.reject(domException("InvalidStateError", "the session ended"));
      return Promise.resolve(new XRLightProbe(secret, this));
    }

    end() {
      if (this._ended) return Promise.reject(domException("InvalidStateError", "the session ended already"));
      shutDown(this);
      return new Promise((resolve) => setTimeout(() => { this.dispatchEvent(new XRSessionEvent("end", { session: this })); resolve(); }, 0));
    }
  }
  eventHandlers(XRSession, ["end", "select", "selectstart", "selectend", "squeeze", "squeezestart", "squeezeend", "inputsourceschange", "visibilitychange", "frameratechange"]);

  /// Marks `session` ended and lets go of what it held.
  function shutDown(session) {
    session._ended = true;
    session._callbacks = [];
    for (const [, pending] of session._newAnchors) pending.reject(domException("InvalidStateError", "the session ended"));
    session._newAnchors.clear();
    session._anchors.clear();
    const layer = session._renderState.baseLayer;
    if (layer && !layer._gl.isContextLost()) {
      (layerBuffers.get(layer.framebuffer) || []).forEach((buffer) => layer._gl.deleteRenderbuffer(buffer));
      layer._gl.deleteFramebuffer(layer.framebuffer);
    }
    if (session._overlayListener) global.removeEventListener("pointerdown", session._overlayListener, true);
    if (session._overlay) showOnlyOverlay(session._overlay, false);
    if (runtime.session === session) runtime.session = null;
  }

  /// The features a request is granted: the defaults, and those asked for that the device has.
  function grantFeatures(init, trackedImages) {
    const config = runtime.config;
    const supported = new Set(["viewer", "local", "hit-test", ...config.features]);
    if (!config.imageTracking) supported.delete("image-tracking");
    if (config.cameraAccess) supported.add("camera-access");
    if (!(init.domOverlay && init.domOverlay.root && init.domOverlay.root.nodeType === 1)) supported.delete("dom-overlay");
    if (!trackedImages.length) supported.delete("image-tracking");
    const required = ["viewer", "local", ...(init.requiredFeatures || [])], optional = init.optionalFeatures || [];
    const missing = required.filter((feature) => !supported.has(feature));
    if (missing.length) throw domException("NotSupportedError", "required features not supported: " + missing.join(", "));
    return [...new Set([...required, ...optional.filter((feature) => supported.has(feature))])];
  }

  /// navigator.xr.
  class XRSystem extends global.EventTarget {
    constructor(token) { illegal(token); super(); }

    isSessionSupported(mode) {
      if (!["inline", "immersive-vr", "immersive-ar"].includes(mode)) return Promise.reject(new TypeError(`"${mode}" is not an XRSessionMode`));
      return Promise.resolve(mode === "inline" || (mode === "immersive-ar" && !!runtime.config.supported));
    }

    requestSession(mode, init) {
      const options = init || {};
      if (mode !== "immersive-ar" || !runtime.config.supported) return Promise.reject(domException("NotSupportedError", `"${mode}" sessions are not supported`));
      if (runtime.config.requireActivation && global.navigator.userActivation && !global.navigator.userActivation.isActive) {
        return Promise.reject(domException("SecurityError", "an immersive session needs a user gesture"));
      }
      if (runtime.session) return Promise.reject(domException("InvalidStateError", "an immersive session is running already"));
      const config = runtime.config;
      const requested = Array.isArray(options.trackedImages) ? options.trackedImages : [];
      const trackedImages = requested.map((entry, index) => ({
        widthInMeters: entry.widthInMeters, width: entry.image && entry.image.width, height: entry.image && entry.image.height,
        score: scoreOf(config.trackable, index),
      }));
      if (trackedImages.some((image) => !(image.widthInMeters > 0) || !image.width)) return Promise.reject(new TypeError("trackedImages need an image and widthInMeters > 0"));
      let enabled;
      try { enabled = grantFeatures(options, trackedImages); } catch (error) { return Promise.reject(error); }
      runtime.requested = { mode, requiredFeatures: (options.requiredFeatures || []).slice(), optionalFeatures: (options.optionalFeatures || []).slice(),
        domOverlay: !!options.domOverlay, trackedImages: trackedImages.map(({ width, height, widthInMeters }) => ({ width, height, widthInMeters })) };
      const viewport = config.viewport || [global.innerWidth, global.innerHeight];
      const session = new XRSession(secret, {
        enabled, viewport, pixelRatio: config.pixelRatio || global.devicePixelRatio || 1,
        overlay: enabled.includes("dom-overlay") ? options.domOverlay.root : null,
        trackedImages: enabled.includes("image-tracking") ? trackedImages : [],
      });
      if (typeof config.persistentAnchors === "number" && enabled.includes("anchors")) persistentMethods(session);
      runtime.session = session;
      runtime.sessionCount += 1;
      if (session._overlay) showOnlyOverlay(session._overlay, true);
      if (session._overlay && config.overlayInput) listenToOverlay(session);
      return Promise.resolve(session);
    }
  }
  eventHandlers(XRSystem, ["devicechange"]);

  /// An image's score from the `trackable` setting: an array of booleans or scores, or one for all.
  function scoreOf(trackable, index) {
    const value = Array.isArray(trackable) ? trackable[index] : trackable;
    return value === false || value === "untrackable" ? "untrackable" : "trackable";
  }

  /// Shows only the DOM overlay, as a phone does (its root is made fullscreen over the camera):
  /// the rest of the document is hidden (not laid out differently) while `on`.
  function showOnlyOverlay(root, on) {
    const document = global.document, html = document && document.documentElement;
    if (!html) return;
    let style = document.getElementById("xr-runtime-overlay");
    if (!style) {
      style = document.createElement("style");
      style.id = "xr-runtime-overlay";
      style.textContent = "html[data-xr-overlay], html[data-xr-overlay] body { background: transparent !important; }"
        + " html[data-xr-overlay] body * { visibility: hidden; }"
        + " html[data-xr-overlay] [data-xr-overlay-root], html[data-xr-overlay] [data-xr-overlay-root] * { visibility: visible; }";
      (document.head || html).appendChild(style);
    }
    if (on) { html.setAttribute("data-xr-overlay", ""); root.setAttribute("data-xr-overlay-root", ""); }
    else { html.removeAttribute("data-xr-overlay"); root.removeAttribute("data-xr-overlay-root"); }
  }

  /// Taps on the DOM overlay's own elements are XR input too (as on a phone): each fires
  /// `beforexrselect` at the element, and a select unless the page cancels it.
  function listenToOverlay(session) {
    session._overlayListener = (event) => {
      if (!event.isTrusted || !session._overlay.contains(event.target)) return;
      const x = event.clientX, y = event.clientY;
      setTimeout(() => { if (!session._ended) tap(x, y, event.target); }, 0);
    };
    global.addEventListener("pointerdown", session._overlayListener, true);
  }

  // --- The runtime's state and its control from the check -------------------------------------

  const runtime = {
    config: { supported: true, features: ["anchors", "dom-overlay", "light-estimation", "local-floor", "image-tracking"], imageTracking: true,
      trackable: true, viewport: null, pixelRatio: null, fovY: 60, localHeight: 0, requireActivation: true, overlayInput: true,
      planes: [{ point: [0, 0, 0], normal: [0, 1, 0] }, { point: [0, 0, -2], normal: [0, 0, 1] }] },
    viewer: { p: [0, 1.5, 0], q: [0, 0, 0, 1] },
    emulated: false,
    images: {},
    light: { direction: [0, 1, 0], intensity: [1, 1, 1], sphericalHarmonics: new Array(27).fill(0) },
    session: null,
    sessionCount: 0,
    frameCount: 0,
    requested: null,
    anchors: [],
    auto: 0,
    origin: null,
    geo: null,
    persisted: new Map(),
    random: seeded(1),
    compassRandom: seeded(2),
  };
  const compatible = new WeakSet();
  const layerBuffers = new WeakMap();

  /// A snapshot of the scripted world for one frame.
  const worldState = () => ({ viewer: runtime.viewer, emulated: runtime.emulated, images: noisyImages(), time: global.performance.now() });

  /// The images as seen this frame. An image with `noise` is seen as a tracker sees a picture: its
  /// four corners each off by a normal draw of `noise` metres on every axis, and its pose fitted to
  /// them (the centre their mean; +X from the left edge to the right, +Z from the top to the bottom).
  function noisyImages() {
    const seen = {}, session = runtime.session;
    for (const [index, image] of Object.entries(runtime.images)) {
      const tracked = session && session._trackedImages[index];
      if (!image.noise || !tracked) { seen[index] = image; continue; }
      const a = tracked.widthInMeters / 2, b = a * (tracked.height / tracked.width || 1), draw = () => gaussian(runtime.random) * image.noise;
      const [tl, tr, br, bl] = [[-a, 0, -b], [a, 0, -b], [a, 0, b], [-a, 0, b]].map((corner) => add(add(image.pose.p, quatRotate(image.pose.q, corner)), [draw(), draw(), draw()]));
      const x = normalize(sub(add(tr, br), add(tl, bl))), down = sub(add(br, bl), add(tl, tr));
      const z = normalize(sub(down, scale(x, dot(x, down)))), y = cross(z, x);
      seen[index] = Object.assign({}, image, { pose: { p: scale(add(add(tl, tr), add(br, bl)), 0.25), q: quatNormalize(quatFromBasis(x, y, z)) } });
    }
    return seen;
  }

  /// Fires the compass's `deviceorientationabsolute` for the viewer, when the world has a north.
  function fireCompass() {
    const north = runtime.config.north;
    if (typeof north !== "number" || !runtime.viewer || typeof global.DeviceOrientationEvent !== "function") return;
    const off = (runtime.config.compassNoise || 0) * gaussian(runtime.compassRandom);
    const angles = deviceAngles(runtime.viewer.q, north + off);
    global.dispatchEvent(new global.DeviceOrientationEvent("deviceorientationabsolute", Object.assign({ absolute: true }, angles)));
  }

  /// The hit-test results of every active source of `frame`'s session (sorted along each ray).
  function computeHits(frame) {
    for (const source of frame.session._hitSources) {
      const from = source._space._locate(frame._state), results = [];
      if (from) {
        const ray = source._offsetRay, origin = ray && ray.origin ? [ray.origin.x, ray.origin.y, ray.origin.z] : [0, 0, 0];
        const direction = ray && ray.direction ? [ray.direction.x, ray.direction.y, ray.direction.z] : [0, 0, -1];
        const o = add(from.p, quatRotate(from.q, origin)), d = quatRotate(from.q, direction);
        const hit = firstHit(o, d, runtime.config.planes);
        if (hit) results.push(new XRHitTestResult(secret, frame, { p: hit.point, q: surfaceOrientation(hit.normal, d) }));
      }
      frame._hits.set(source, results);
    }
  }

  /// Resolves the anchors created since the last frame (the spec's "update anchors").
  function updateAnchors(session) {
    for (const [anchor, pending] of session._newAnchors) pending.resolve(anchor);
    session._newAnchors.clear();
  }

  /// Runs one XR animation frame of the live session; the milliseconds its callbacks took.
  function frame() {
    const session = runtime.session;
    if (!session || session._ended || session.visibilityState === "hidden") return 0;
    if (session._pending) { Object.assign(session._renderState, session._pending); session._pending = null; }
    const layer = session._renderState.baseLayer;
    if (!layer) return 0;
    fireCompass();
    const xrFrame = new XRFrame(secret, session, worldState(), true);
    updateAnchors(session);
    xrFrame.trackedAnchors = new Set(session._anchors);
    computeHits(xrFrame);
    clearLayer(layer);
    const callbacks = session._callbacks;
    session._callbacks = [];
    session._cancelled.clear();
    const started = global.performance.now();
    session._inFrame = true;
    for (const { handle, callback } of callbacks) {
      if (session._cancelled.has(handle)) continue;
      try { callback(xrFrame._state.time, xrFrame); } catch (error) { report(error); }
    }
    session._inFrame = false;
    const took = global.performance.now() - started;
    xrFrame._active = false;
    runtime.frameCount += 1;
    return took;
  }

  /// Reports an exception thrown by a page callback as the browser would (an uncaught error).
  function report(error) {
    if (typeof global.reportError === "function") global.reportError(error); else setTimeout(() => { throw error; }, 0);
  }

  /// A tap at CSS pixel (x, y) of the view: `beforexrselect` on the DOM overlay element there (when
  /// `element` is not given, the one at that point), then selectstart, select and selectend from a
  /// transient screen input whose target ray goes from the viewer through that pixel.
  function tap(x, y, element) {
    const session = runtime.session;
    if (!session || session._ended) return { dispatched: false, reason: "no session" };
    if (session._overlay) {
      const at = element || (global.document && global.document.elementFromPoint(x, y));
      if (at && session._overlay.contains(at)) {
        const before = new XRSessionEvent("beforexrselect", { session, bubbles: true, cancelable: true, composed: true });
        at.dispatchEvent(before);
        if (before.defaultPrevented) return { dispatched: false, reason: "beforexrselect cancelled" };
      }
    }
    const state = worldState();
    if (!state.viewer) return { dispatched: false, reason: "tracking lost" };
    const local = tapDirection(x, y, session._viewport, runtime.config.fovY * Math.PI / 180);
    const ray = compose(state.viewer, { p: [0, 0, 0], q: rayOrientation(local, [0, 1, 0]) });
    const source = new XRInputSource(secret, session, ray);
    session._inputSources.push(source);
    session.dispatchEvent(new XRInputSourcesChangeEvent("inputsourceschange", { session, added: [source], removed: [] }));
    const xrFrame = new XRFrame(secret, session, state, false);
    computeHits(xrFrame);
    for (const type of ["selectstart", "select", "selectend"]) session.dispatchEvent(new XRInputSourceEvent(type, { frame: xrFrame, inputSource: source }));
    xrFrame._active = false;
    session._inputSources = session._inputSources.filter((other) => other !== source);
    session.dispatchEvent(new XRInputSourcesChangeEvent("inputsourceschange", { session, added: [], removed: [source] }));
    return { dispatched: true, origin: ray.p, direction: quatRotate(ray.q, [0, 0, -1]) };
  }

  /// The live session's layer, or throws.
  function liveLayer() {
    const session = runtime.session, layer = session && session._renderState.baseLayer;
    if (!layer) throw new Error("__xr: no session with a base layer");
    return layer;
  }

  /// The layer's pixels in the rectangle (x, y, w, h) (bottom-left origin, rows bottom to top), RGBA.
  function readPixels(x, y, width, height, encoding) {
    const layer = liveLayer(), gl = layer._gl;
    const x0 = Math.max(0, Math.floor(x)), y0 = Math.max(0, Math.floor(y));
    const w = Math.max(0, Math.min(layer.framebufferWidth, Math.floor(x) + width) - x0), h = Math.max(0, Math.min(layer.framebufferHeight, Math.floor(y) + height) - y0);
    const pixels = new Uint8Array(w * h * 4);
    const saved = { framebuffer: gl.getParameter(gl.READ_FRAMEBUFFER_BINDING), pack: gl.getParameter(gl.PIXEL_PACK_BUFFER_BINDING), alignment: gl.getParameter(gl.PACK_ALIGNMENT) };
    gl.bindFramebuffer(gl.READ_FRAMEBUFFER, layer.framebuffer);
    gl.bindBuffer(gl.PIXEL_PACK_BUFFER, null);
    gl.pixelStorei(gl.PACK_ALIGNMENT, 1);
    if (w && h) gl.readPixels(x0, y0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
    gl.bindFramebuffer(gl.READ_FRAMEBUFFER, saved.framebuffer);
    gl.bindBuffer(gl.PIXEL_PACK_BUFFER, saved.pack);
    gl.pixelStorei(gl.PACK_ALIGNMENT, saved.alignment);
    if (encoding !== "base64") return pixels;
    let text = "";
    for (let i = 0; i < pixels.length; i += 0x8000) text += String.fromCharCode.apply(null, pixels.subarray(i, i + 0x8000));
    return { x: x0, y: y0, width: w, height: h, data: global.btoa(text) };
  }

  /// The view's projection as the page gets it, the viewer's view matrix, and the framebuffer's size.
  function projection() {
    const layer = liveLayer(), session = runtime.session, state = session._pending ? Object.assign({}, session._renderState, session._pending) : session._renderState;
    const matrix = perspective(runtime.config.fovY * Math.PI / 180, session._viewport[0] / session._viewport[1], state.depthNear, state.depthFar);
    const viewer = runtime.viewer;
    return { matrix: Array.from(new Float32Array(matrix)), viewMatrix: viewer ? rigidMatrix(rigidInverse(viewer).p, rigidInverse(viewer).q) : null,
      viewport: { x: 0, y: 0, width: layer.framebufferWidth, height: layer.framebufferHeight }, cssViewport: session._viewport.slice(),
      pixelRatio: session._pixelRatio, fovY: runtime.config.fovY, near: state.depthNear, far: state.depthFar,
      viewer: viewer ? { position: viewer.p.slice(), orientation: viewer.q.slice() } : null };
  }

  /// Where the world point `p` falls in the view: framebuffer pixels (bottom-left) and CSS pixels (top-left).
  function project(p) {
    const view = projection();
    if (!view.viewMatrix) return null;
    const eye = transform4(view.viewMatrix, p), clip = transform4(view.matrix, eye.slice(0, 3));
    if (clip[3] <= 0) return null;
    const nx = clip[0] / clip[3], ny = clip[1] / clip[3], v = view.viewport;
    return { x: (nx + 1) / 2 * v.width, y: (ny + 1) / 2 * v.height, cssX: (nx + 1) / 2 * view.cssViewport[0], cssY: (1 - ny) / 2 * view.cssViewport[1], depth: clip[2] / clip[3] };
  }

  /// Drives frames from window.requestAnimationFrame while `on`.
  function autoFrames(on) {
    if (runtime.auto) { global.cancelAnimationFrame(runtime.auto); runtime.auto = 0; }
    if (!on) return;
    const tick = () => { runtime.auto = global.requestAnimationFrame(tick); frame(); };
    runtime.auto = global.requestAnimationFrame(tick);
  }

  const control = {
    math,
    configure(options) {
      Object.assign(runtime.config, options || {});
      // Two streams, so the pictures' scatter does not depend on how many frames ran without them.
      if (options && options.seed !== undefined) { runtime.random = seeded(options.seed); runtime.compassRandom = seeded(options.seed + 1); }
      return Object.assign({}, runtime.config);
    },
    setOrigin(pose) { runtime.origin = pose ? poseOf(pose) : null; },
    setGeo(fix) { runtime.geo = fix ? Object.assign({}, fix) : null; },
    setViewer(pose) { runtime.viewer = pose ? poseOf(pose) : null; },
    /// Whether the viewer's position is emulated from now on (WebXR's sign of lost positional tracking).
    setEmulated(emulated) { runtime.emulated = !!emulated; },
    setImage(index, pose) {
      if (pose) runtime.images[index] = { pose: poseOf(pose), state: pose.state || "tracked", measuredWidthInMeters: pose.measuredWidthInMeters, noise: Number(pose.noise) || 0 };
      else delete runtime.images[index];
    },
    setLight(light) { Object.assign(runtime.light, light || {}); },
    tap: (x, y) => tap(x, y, null),
    frame,
    autoFrames,
    readPixels,
    projection,
    project,
    anchors: () => runtime.anchors.map((anchor) => ({ position: anchor._pose.p.slice(), orientation: anchor._pose.q.slice(), deleted: anchor._deleted })),
    /// Moves every live anchor by the world pose `pose` (tracking drift), as the device would.
    moveAnchors(pose) { const by = poseOf(pose); for (const anchor of runtime.anchors) anchor._pose = compose(by, anchor._pose); },
    setVisibility(state) {
      const session = runtime.session;
      if (!session) return;
      session.visibilityState = state;
      session.dispatchEvent(new XRSessionEvent("visibilitychange", { session }));
    },
    /// Ends the live session as the system would (the user pressed back).
    endSession() { const session = runtime.session; if (session) { shutDown(session); session.dispatchEvent(new XRSessionEvent("end", { session })); } },
    get session() { return runtime.session; },
    get sessionCount() { return runtime.sessionCount; },
    get frameCount() { return runtime.frameCount; },
    get requested() { return runtime.requested; },
  };

  /// navigator.geolocation answering with the fix setGeo scripted (an error without one).
  function scriptedGeolocation() {
    const answer = (success, failure) => setTimeout(() => {
      const fix = runtime.geo;
      if (!fix) { if (failure) failure({ code: 2, message: "no position scripted" }); return; }
      success({ timestamp: Date.now(), coords: { latitude: fix.latitude, longitude: fix.longitude, accuracy: fix.accuracy, altitude: null, altitudeAccuracy: null, heading: null, speed: null } });
    }, 0);
    let watches = 0;
    return {
      getCurrentPosition: (success, failure) => answer(success, failure),
      watchPosition: (success, failure) => { answer(success, failure); return ++watches; },
      clearWatch: () => {},
    };
  }

  // --- Installation -----------------------------------------------------------------------------

  const classes = { XRSystem, XRSession, XRSpace, XRReferenceSpace, XRFrame, XRPose, XRViewerPose, XRView, XRViewport, XRRenderState,
    XRRigidTransform, XRWebGLLayer, XRHitTestSource, XRHitTestResult, XRAnchor, XRInputSource, XRLightProbe, XRLightEstimate,
    XRImageTrackingResult, XRSessionEvent, XRInputSourceEvent, XRInputSourcesChangeEvent, XRCamera, XRWebGLBinding };
  for (const [name, value] of Object.entries(classes)) Object.defineProperty(global, name, { value, configurable: true, writable: true });
  if (global.navigator) Object.defineProperty(global.navigator, "xr", { value: new XRSystem(secret), configurable: true });
  if (global.navigator) Object.defineProperty(global.navigator, "geolocation", { value: scriptedGeolocation(), configurable: true });
  for (const name of ["WebGLRenderingContext", "WebGL2RenderingContext"]) {
    if (!global[name]) continue;
    Object.defineProperty(global[name].prototype, "makeXRCompatible", {
      configurable: true, writable: true, value() { compatible.add(this); return Promise.resolve(); },
    });
  }
  Object.defineProperty(global, "__xr", { value: control, configurable: true });
})(typeof window !== "undefined" ? window : globalThis);
