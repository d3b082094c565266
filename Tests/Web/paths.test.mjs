// API paths and links (studio/core/paths.js) and roles (studio/core/roles.js).
import assert from "node:assert/strict";
import { test } from "node:test";
import { path, projectPath, withAccessToken } from "../../Sources/ARVisServer/Web/Files/studio/core/paths.js";
import { canEdit } from "../../Sources/ARVisServer/Web/Files/studio/core/roles.js";

test("paths escape each part", () => {
  assert.equal(path("api", "v1", "projects"), "/api/v1/projects");
  assert.equal(path(), "/");
  assert.equal(projectPath("museum", "specs", "a b/c?d#e"), "/api/v1/projects/museum/specs/a%20b%2Fc%3Fd%23e");
  assert.equal(projectPath("café", "assets"), "/api/v1/projects/caf%C3%A9/assets");
  assert.equal(projectPath("museum"), "/api/v1/projects/museum");
});

test("links carry the token as access_token, after any query", () => {
  assert.equal(withAccessToken("/a/thumb.png", null), "/a/thumb.png");
  assert.equal(withAccessToken("/a/thumb.png", ""), "/a/thumb.png");
  assert.equal(withAccessToken("/a/thumb.png", "t+k/=="), "/a/thumb.png?access_token=t%2Bk%2F%3D%3D");
  assert.equal(withAccessToken("/a/thumb.png?size=360", "tok"), "/a/thumb.png?size=360&access_token=tok");
});

test("owners and editors edit; viewers and visitors do not", () => {
  assert.equal(canEdit({ role: "owner" }), true);
  assert.equal(canEdit({ role: "editor" }), true);
  assert.equal(canEdit({ role: "viewer" }), false);
  assert.equal(canEdit({}), false);
});
