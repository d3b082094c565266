// A spec as the editor saves it: the stored version its text is compared and saved against (ETag,
// number, text), and the API calls on the spec and its versions.

import { api, APIError, projectPath } from "../core/api.js";
import { preconditions } from "./save-state.js";
import { mediaTypeOf } from "./spec-text.js";

/// A stored version from a spec response: {text, etag, version}.
async function readVersion(response) {
  if (!response.ok) throw new APIError(response.status, await response.json().catch(() => null));
  return { text: await response.text(), etag: response.headers.get("ETag"), version: Number(response.headers.get("ARVis-Version")) || 0 };
}

export class SpecDocument {
  constructor(slug, name) {
    this.slug = slug;
    this.name = name;
    this.path = projectPath(slug, "specs", name);
    /// The version the editor's text is based on (none yet: null, 0 and "").
    this.etag = null;
    this.version = 0;
    this.saved = "";
  }

  /// Makes `stored` ({text, etag, version}) the version the editor's text is compared and saved against.
  adopt(stored) {
    this.etag = stored.etag;
    this.version = stored.version;
    this.saved = stored.text;
  }

  /// Adopts the spec as stored now and returns it, or null when it does not exist yet.
  async load() {
    const stored = await this.latest();
    if (stored) this.adopt(stored);
    return stored;
  }

  /// The spec as stored now, or null when it does not exist (asked of the list, not answered with a 404).
  async latest() {
    const { specs } = await api("GET", projectPath(this.slug, "specs"));
    if (!specs.some((spec) => spec.name === this.name)) return null;
    return readVersion(await api("GET", this.path, { raw: true }));
  }

  /// The spec as stored, if someone saved (or deleted: null) it since the adopted version; else undefined.
  async changedSince() {
    if (!this.etag) return await this.latest() || undefined;
    const response = await api("GET", this.path, { raw: true, headers: { "If-None-Match": this.etag } });
    if (response.status === 304) return undefined;
    if (response.status === 404) return null;
    return readVersion(response);
  }

  /// Saves `text` over the adopted version (or over ETag `over`) and adopts it; the server's answer.
  async save(text, over) {
    const saved = await api("PUT", this.path, { body: text, type: mediaTypeOf(text), headers: preconditions(over, this.etag) });
    this.adopt({ etag: saved.etag, version: saved.version, text });
    return saved;
  }

  remove() { return api("DELETE", this.path); }

  /// The spec's versions, oldest first.
  async versions() { return (await api("GET", this.path + "/versions")).versions; }

  /// The text of version `number`.
  async versionText(number) { return (await api("GET", this.path + "/versions/" + number, { raw: true })).text(); }

  /// Saves version `number`'s text as a new version; the server's answer ({etag, version}).
  restore(number) { return api("POST", this.path + "/versions/" + number + "/restore"); }
}
