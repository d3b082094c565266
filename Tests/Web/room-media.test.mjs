// The pure parts of a room's video: who a publisher sends to (media/camera-share.js), the frame
// metadata a viewer keeps by RTP timestamp (media/video-display.js), the path the video takes
// (studio/rooms/expert-video.js) and a view's intrinsics in a camera picture's pixels.
import assert from "node:assert/strict";
import { test } from "node:test";
import { RoomMembers } from "../../Sources/ARVisServer/Web/Files/media/camera-share.js";
import { FrameMetadata } from "../../Sources/ARVisServer/Web/Files/media/video-display.js";
import { base64Of } from "../../Sources/ARVisServer/Web/Files/media/frame-metadata.js";
import { videoPath } from "../../Sources/ARVisServer/Web/Files/studio/rooms/expert-video.js";
import { pictureIntrinsics } from "../../Sources/ARVisServer/Web/Files/xr/view-intrinsics.js";

test("a publisher follows who is in the room, and how to reach them", () => {
  const room = new RoomMembers();
  assert.equal(room.read({ type: "welcome", members: [{ id: "a", role: "member" }], iceServers: [{ urls: ["turn:x"] }], iceTransportPolicy: "relay" }), true);
  assert.deepEqual([...room.members.keys()], ["a"]);
  assert.equal(room.iceTransportPolicy, "relay");
  room.read({ type: "memberJoined", member: { id: "b", role: "member" } });
  room.read({ type: "memberLeft", id: "a" });
  assert.deepEqual([...room.members.keys()], ["b"]);
  assert.equal(room.read({ type: "annotation" }), false);
  room.read({ type: "welcome", members: [] });
  assert.equal(room.members.size, 0, "a new welcome starts afresh");
  assert.equal(room.iceTransportPolicy, "all", "any path unless the server says relay");
});

test("a viewer keeps the metadata of the last frames by RTP timestamp", async () => {
  const kept = new FrameMetadata(3);
  for (const rtpTimestamp of [10, 20, 30, 40]) kept.keep({ rtpTimestamp, counter: rtpTimestamp / 10 });
  assert.equal(kept.of(10), null, "the oldest is gone past the limit");
  assert.equal(kept.of(40).counter, 4);
  kept.keep({ counter: 9 });
  assert.equal(kept.byTimestamp.size, 3, "metadata without a timestamp is not kept");
  setTimeout(() => kept.keep({ rtpTimestamp: 50, counter: 5 }), 5);
  assert.equal((await kept.arriving(50)).counter, 5, "a frame shown before its metadata arrived waits for it");
  assert.equal(await kept.arriving(60, 10), null);
  const never = new FrameMetadata();
  const started = Date.now();
  assert.equal(await never.arriving(70), null);
  assert.ok(Date.now() - started < 20, "a stream that never carried metadata is not waited for");
});

test("the video's path is read from the selected candidate pair", async () => {
  const stats = (local, remote) => ({
    getStats: async () => new Map([
      ["t", { type: "transport", selectedCandidatePairId: "p" }],
      ["p", { type: "candidate-pair", localCandidateId: "l", remoteCandidateId: "r" }],
      ["l", { type: "local-candidate", candidateType: local }],
      ["r", { type: "remote-candidate", candidateType: remote }],
    ]),
  });
  assert.equal(await videoPath(stats("host", "host")), "direct");
  assert.equal(await videoPath(stats("relay", "srflx")), "relay");
  assert.equal(await videoPath(stats("host", "relay")), "relay");
  assert.equal(await videoPath({ getStats: async () => new Map() }), null, "no path chosen yet");
});

test("a phone's view intrinsics in the pixels of the camera picture it shows filled", () => {
  // A 360 × 780 portrait view showing a 480 × 640 picture: the picture is scaled by 780/640 and
  // its sides are cut; the centre stays the centre, and a focal length in points scales back.
  const [fx, fy, cx, cy] = pictureIntrinsics([600, 600, 180, 390], [360, 780], [480, 640]);
  const k = 780 / 640;
  assert.ok(Math.abs(fx - 600 / k) < 1e-9 && Math.abs(fy - 600 / k) < 1e-9);
  assert.ok(Math.abs(cx - 240) < 1e-9 && Math.abs(cy - 320) < 1e-9);
  // The same point seen in both: a view point's ray meets the picture where the picture says.
  const viewPoint = [90, 200], pictureX = (viewPoint[0] - (360 - 480 * k) / 2) / k;
  assert.ok(Math.abs((viewPoint[0] - 180) / 600 - (pictureX - cx) / fx) < 1e-12);
});

test("a room's members say who publishes", () => {
  const room = new RoomMembers();
  room.read({ type: "welcome", members: [{ id: "p", role: "publisher" }, { id: "m", role: "member" }] });
  assert.ok(room.isPublisher("p") && !room.isPublisher("m") && !room.isPublisher("nobody"));
  assert.equal(room.hasPublisher, true);
  room.read({ type: "memberLeft", id: "p" });
  assert.equal(room.hasPublisher, false, "a device that left is no longer there");
});

test("a pose packet travels as Base64", () => {
  assert.equal(base64Of(new Uint8Array([0, 1, 254, 255]).buffer), "AAH+/w==");
});
