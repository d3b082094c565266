// The room's wire protocol (protocol/room-protocol.js) and the pose packet codec
// (protocol/pose-packet.js): ARVis pose packets (62 bytes) written as phones send them and read as
// the Studio and the video pages read them, and JSON messages.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { test } from "node:test";
import { crc32, decodePose, encodePose, posePacketBytes } from "../../Sources/ARVisServer/Web/Files/protocol/pose-packet.js";
import { lastSeen, readRoomFrame, reconnectDelay, refusedClose, roomProtocols, roomURL }
  from "../../Sources/ARVisServer/Web/Files/protocol/room-protocol.js";

/// An ArrayBuffer holding exactly the bytes of `hex`.
const bytes = (hex) => new Uint8Array(hex.match(/../g).map((pair) => parseInt(pair, 16))).buffer;

/// A packet as PosePacket.encoded() and check_studio.py write it (struct "<BBHHIdffffffffff" and a
/// CRC-32 of the 58 bytes before it), made with Python's struct and zlib: frame 42 at
/// 1732233600.125 s, position (0.25, 1.5, −0.75), a quarter turn about y (x, y, z = 0, √½, 0),
/// intrinsics (1500, 1500, 960, 720), viewport 1920 × 1440.
const quarterTurn = "01008007a0052a00000000000860f2cfd9410000803e0000c03f000040bf00000000f304353f000000000080bb440080bb4400007044000034448495165f";
/// check_studio.py's publisher at frame 7 (time 1700000000.5 s): a camera 1.5 m up, looking along
/// −z with a 60° vertical field of view on a 390 × 844 viewport.
const publisher = "010086014c030700000000002040fc54d941295c0f3d0000c03f0000004000000000000000000000000040bb364440bb3644000043430000d34300a1df00";

/// A packet of `length` bytes: version `version`, the given floats at their offsets.
function packet({ length = posePacketBytes, version = 1, orientation = [0, 0, 0] } = {}) {
  const buffer = new ArrayBuffer(length), view = new DataView(buffer);
  if (length > 0) view.setUint8(0, version);
  if (length >= 42) orientation.forEach((value, index) => view.setFloat32(30 + 4 * index, value, true));
  return buffer;
}

test("a pose packet decodes to its viewport, frame, time, position, orientation and intrinsics", () => {
  assert.deepEqual(decodePose(bytes(quarterTurn)), {
    viewport: [1920, 1440], frame: 42, time: 1732233600.125,
    position: [0.25, 1.5, -0.75],
    // y is √½ rounded to Float32; w is rebuilt from it in double precision.
    orientation: [0, 0.7071067690849304, 0, 0.7071067932881644],
    intrinsics: [1500, 1500, 960, 720],
  });
});

test("Float32 fields come back as the Float32 the device wrote, not the decimal it meant", () => {
  const pose = decodePose(bytes(publisher));
  assert.deepEqual(pose.viewport, [390, 844]);
  assert.equal(pose.frame, 7);
  assert.equal(pose.time, 1700000000.5);
  assert.deepEqual(pose.position, [0.03500000014901161, 1.5, 2]);
  assert.deepEqual(pose.orientation, [0, 0, 0, 1]);
  assert.deepEqual(pose.intrinsics, [730.92578125, 730.92578125, 195, 422]);
});

test("a packet of another length is not a pose", () => {
  for (const length of [0, 1, 32, 61, 63, 124]) assert.equal(decodePose(packet({ length })), null, length + " bytes");
  assert.notEqual(decodePose(packet()), null);
});

test("a packet of another version is not a pose", () => {
  for (const version of [0, 2, 255]) assert.equal(decodePose(packet({ version })), null, "version " + version);
});

test("w is never NaN: a rounded orientation a hair over unit length gets w = 0", () => {
  const pose = decodePose(packet({ orientation: [0.6, 0.8, 0.0001] }));
  assert.equal(pose.orientation[3], 0);
  assert.deepEqual(decodePose(packet({ orientation: [0, 0, 1] })).orientation, [0, 0, 1, 0]);
});

const fixtures = new URL("../../../shared/reference/fixtures/opentok-arframemetadata-vectors.synthetic.json", import.meta.url);

test("OpenTok's 32-byte frame metadata (the reference vectors) is not taken for an ARVis pose", { skip: !existsSync(fixtures) && "../shared/reference/fixtures is absent" }, () => {
  const { vectors } = JSON.parse(readFileSync(fixtures, "utf8"));
  assert.ok(vectors.length >= 3);
  for (const vector of vectors) {
    assert.equal(vector.byte_length, 32);
    assert.equal(decodePose(bytes(vector.bytes_hex_le)), null, vector.name);
    assert.equal(readRoomFrame(bytes(vector.bytes_hex_le)), null, vector.name);
  }
});

test("the reference vectors' Float32 positions decode exactly when carried in an ARVis packet", { skip: !existsSync(fixtures) && "../shared/reference/fixtures is absent" }, () => {
  const { vectors } = JSON.parse(readFileSync(fixtures, "utf8"));
  for (const vector of vectors) {
    const buffer = packet(), view = new DataView(buffer);
    // The OpenTok layout's first three floats are the position, as in an ARVis packet at offset 18.
    const source = new DataView(bytes(vector.bytes_hex_le));
    for (let index = 0; index < 3; index++) view.setFloat32(18 + 4 * index, source.getFloat32(4 * index, true), true);
    const { floats } = vector;
    assert.deepEqual(decodePose(buffer).position, [floats.pos_x, floats.pos_y, floats.pos_z], vector.name);
  }
});

test("room frames: binary is a pose, text a JSON object message, anything else nothing", () => {
  assert.deepEqual(readRoomFrame(bytes(publisher)), { pose: decodePose(bytes(publisher)) });
  assert.equal(readRoomFrame(packet({ version: 2 })), null);
  assert.deepEqual(readRoomFrame('{"type":"welcome","room":"main","seq":3,"annotations":[]}'),
    { message: { type: "welcome", room: "main", seq: 3, annotations: [] } });
  assert.deepEqual(readRoomFrame('{"type":"annotation","annotation":{"text":"Vanne à contrôler ✓"}}').message.annotation.text, "Vanne à contrôler ✓");
  for (const text of ["", "{", "not json", "null", "42", '"text"', "true"]) assert.equal(readRoomFrame(text), null, JSON.stringify(text));
});

test("the last event seen only moves forward, and only for messages with a seq", () => {
  assert.equal(lastSeen(null, { type: "welcome", seq: 5 }), 5);
  assert.equal(lastSeen(5, { type: "tree", seq: 9 }), 9);
  assert.equal(lastSeen(9, { type: "tree", seq: 7 }), 9);
  assert.equal(lastSeen(null, { type: "refused" }), null);
  assert.equal(lastSeen(4, { type: "refused", seq: "5" }), 4);
  assert.equal(lastSeen(null, { seq: 0 }), 0);
});

test("the room's URL follows the page's scheme, escapes its names and resumes after an event", () => {
  assert.equal(roomURL("https:", "arvis.example:8443", "museum", "main", null), "wss://arvis.example:8443/live/museum/rooms/main");
  assert.equal(roomURL("http:", "127.0.0.1:8080", "my project", "hall/2", 17), "ws://127.0.0.1:8080/live/my%20project/rooms/hall%2F2?since=17");
  assert.equal(roomURL("http:", "h", "p", "r", 0), "ws://h/live/p/rooms/r?since=0");
  assert.equal(roomURL("http:", "h", "café", "salle", undefined), "ws://h/live/caf%C3%A9/rooms/salle");
});

test("members offer the arvis subprotocol, and their token as one when signed in", () => {
  assert.deepEqual(roomProtocols(null), ["arvis"]);
  assert.deepEqual(roomProtocols(""), ["arvis"]);
  assert.deepEqual(roomProtocols("abc.123"), ["arvis", "arvis.bearer.abc.123"]);
});

test("reconnecting backs off from half a second to ten; refusals are not retried", () => {
  assert.deepEqual([0, 1, 2, 3, 4, 5, 6, 20].map(reconnectDelay), [500, 1000, 2000, 4000, 8000, 10000, 10000, 10000]);
  assert.equal(refusedClose(1008), true);
  assert.equal(refusedClose(4003), true);
  for (const code of [1000, 1001, 1006, 1011, 1012, 4000]) assert.equal(refusedClose(code), false, String(code));
});

function near(actual, expected, tolerance = 1e-6, message = "") {
  assert.equal(actual.length, expected.length, message);
  Array.from(actual).forEach((value, index) => assert.ok(Math.abs(value - expected[index]) <= tolerance, `${message} [${index}]: ${value} ≠ ${expected[index]}`));
}

test("pose packets read back as room-protocol.js reads them, with a valid CRC-32", () => {
  assert.equal(crc32(new TextEncoder().encode("123456789")), 0xcbf43926);
  const packet = encodePose({ viewport: [360, 780], frame: 7, time: 12.5, position: [0.1, 1.6, 2], orientation: [0, -0.38268343, 0, -0.92387953], intrinsics: [675.5, 675.5, 180, 390] });
  const pose = decodePose(packet);
  assert.deepEqual(pose.viewport, [360, 780]);
  assert.equal(pose.frame, 7);
  near(pose.position, [0.1, 1.6, 2], 1e-6);
  near(pose.orientation, [0, 0.38268343, 0, 0.92387953], 1e-6, "w ≥ 0: the same turn");
  const view = new DataView(packet);
  assert.equal(view.getUint32(58, true), crc32(new Uint8Array(packet, 0, 58)));
});
