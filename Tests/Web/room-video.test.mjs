// Peer-to-peer video negotiation in a room (media/room-video.js), with a stand-in for the
// browser's RTCPeerConnection that records what it is asked to do.
import assert from "node:assert/strict";
import { test } from "node:test";
import { maxPeers, videoPublisher, videoViewer } from "../../Sources/ARVisServer/Web/Files/media/room-video.js";

/// A stand-in RTCPeerConnection: descriptions are strings naming their maker, calls are logged.
class FakePeer {
  static made = [];
  constructor() { this.calls = []; this.closed = false; this.localDescription = null; FakePeer.made.push(this); }
  addTrack(track, stream) { this.calls.push(["addTrack", track, stream]); return { track }; }
  async createOffer() { return { type: "offer", sdp: "v=0 offer " + FakePeer.made.indexOf(this) }; }
  async createAnswer() { return { type: "answer", sdp: "v=0 answer " + FakePeer.made.indexOf(this) }; }
  async setLocalDescription(description) { this.localDescription = description; this.calls.push(["local", description.type]); }
  async setRemoteDescription(description) { this.calls.push(["remote", description.type, description.sdp]); }
  async addIceCandidate(candidate) { this.calls.push(["candidate", candidate]); }
  close() { this.closed = true; }
  /// The browser found a local candidate.
  found(candidate) { this.onicecandidate({ candidate: candidate && { toJSON: () => candidate } }); }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

function publisher(options = {}) {
  FakePeer.made = [];
  const sent = [], senders = [];
  const side = videoPublisher({ track: "camera", stream: "stream", send: (message) => sent.push(message), createPeer: () => new FakePeer(), onSender: (sender) => senders.push(sender), ...options });
  return { side, sent, senders };
}

test("the publisher offers its track to each member already in the room, not to another publisher", async () => {
  const { side, sent, senders } = publisher();
  side.welcome({ members: [{ id: "a", role: "member" }, { id: "p", role: "publisher" }, { id: "b", role: "member" }] });
  await settle();
  assert.deepEqual(sent.map((m) => [m.to, m.kind]), [["a", "offer"], ["b", "offer"]]);
  assert.deepEqual(sent[0].sdp, "v=0 offer 0");
  assert.deepEqual(FakePeer.made[0].calls[0], ["addTrack", "camera", "stream"]);
  assert.equal(senders.length, 2, "each sender gets the metadata transform");
});

test("candidates before the answer wait for it; after it they are added at once", async () => {
  const { side, sent } = publisher();
  side.joined({ id: "a", role: "member" });
  await settle();
  const peer = FakePeer.made[0];
  peer.found({ candidate: "candidate:1 1 udp 1 127.0.0.1 5000 typ host", sdpMid: "0" });
  assert.deepEqual(sent.at(-1), { type: "signal", to: "a", kind: "candidate", candidate: { candidate: "candidate:1 1 udp 1 127.0.0.1 5000 typ host", sdpMid: "0" } });
  peer.found(null);
  assert.equal(sent.at(-1).candidate, null, "the end of candidates is null");

  await side.signal({ from: "a", kind: "candidate", candidate: { candidate: "early" } });
  assert.ok(!peer.calls.some((call) => call[0] === "candidate"), "held until the answer");
  await side.signal({ from: "a", kind: "answer", sdp: "v=0 answer" });
  await side.signal({ from: "a", kind: "candidate", candidate: { candidate: "late" } });
  assert.deepEqual(peer.calls.filter((call) => call[0] !== "addTrack" && call[0] !== "local"),
    [["remote", "answer", "v=0 answer"], ["candidate", { candidate: "early" }], ["candidate", { candidate: "late" }]]);
  await side.signal({ from: "stranger", kind: "answer", sdp: "v=0" });
  assert.equal(FakePeer.made.length, 1, "a signal from nobody it offered to changes nothing");
});

test(`past ${maxPeers} members, the next waits for a place`, async () => {
  const { side, sent } = publisher();
  for (const id of ["a", "b", "c", "d"]) side.joined({ id, role: "member" });
  await settle();
  assert.deepEqual([...side.peers.keys()], ["a", "b", "c"]);
  assert.deepEqual(side.waiting, ["d"]);
  assert.deepEqual(sent.filter((m) => m.kind === "wait").map((m) => m.to), ["d"], "the one waiting is told, once");
  side.joined({ id: "d", role: "member" });
  assert.equal(sent.filter((m) => m.kind === "wait").length, 1);
  side.left("b");
  await settle();
  assert.ok(FakePeer.made[1].closed);
  assert.deepEqual([...side.peers.keys()], ["a", "c", "d"]);
  assert.equal(sent.at(-1).to, "d");
  await side.signal({ from: "a", kind: "bye" });
  assert.deepEqual([...side.peers.keys()], ["c", "d"]);
  side.close();
  assert.deepEqual(sent.slice(-2).map((m) => [m.to, m.kind]), [["c", "bye"], ["d", "bye"]]);
});

test("with an SFU and no direct places, every member waits and the camera goes once, to the SFU", async () => {
  const { side, sent, senders } = publisher({ sfu: "sfu", maxPeers: 0 });
  side.welcome({ members: [{ id: "a", role: "member" }, { id: "b", role: "member" }] });
  await settle();
  side.joined({ id: "c", role: "member" });
  await settle();
  const said = (messages) => messages.map((m) => m.to + " " + m.kind).sort();
  assert.deepEqual(said(sent), ["a wait", "b wait", "c wait", "sfu offer"]);
  assert.deepEqual([...side.peers.keys()], ["sfu"]);
  assert.equal(senders.length, 1, "one sender, with the metadata transform");
  assert.deepEqual(side.waiting, ["a", "b", "c"]);
});

test("with an SFU past the direct places, the first members get the camera directly and the rest through the SFU", async () => {
  const { side, sent } = publisher({ sfu: "sfu", maxPeers: 2 });
  side.welcome({ members: ["a", "b", "c", "d"].map((id) => ({ id, role: "member" })) });
  await settle();
  assert.deepEqual(sent.map((m) => m.to + " " + m.kind).sort(), ["a offer", "b offer", "c wait", "d wait", "sfu offer"]);
  // A direct place frees: the first waiting member moves to it (and leaves the SFU itself).
  side.left("a");
  await settle();
  assert.deepEqual(sent.at(-1), { type: "signal", to: "c", kind: "offer", sdp: "v=0 offer " + (FakePeer.made.length - 1) });
  assert.deepEqual([...side.peers.keys()].sort(), ["b", "c", "sfu"]);
});

test("when the SFU ends the camera's path, it is sent again while members wait for it", async () => {
  const { side, sent } = publisher({ sfu: "sfu", maxPeers: 0 });
  side.joined({ id: "a", role: "member" });
  await settle();
  await side.signal({ from: "sfu", kind: "bye" });
  assert.deepEqual([...side.peers.keys()], [], "the lost peer is closed");
  assert.ok(FakePeer.made[0].closed);
  await new Promise((resolve) => setTimeout(resolve, 1100));
  assert.deepEqual(sent.filter((m) => m.to === "sfu").map((m) => m.kind), ["offer", "offer"]);
  side.close();
});

test("a member answers the publisher's offer and hands on its track; a new offer replaces the peer", async () => {
  FakePeer.made = [];
  const sent = [], tracks = [], receivers = [];
  const waits = [];
  const side = videoViewer({ send: (message) => sent.push(message), createPeer: () => new FakePeer(), onTrack: (track, from) => tracks.push([track, from]), onReceiver: (receiver) => receivers.push(receiver), onWait: (from) => waits.push(from) });
  await side.signal({ from: "p", kind: "wait" });
  assert.deepEqual(waits, ["p"], "told to wait for a place");
  assert.equal(FakePeer.made.length, 0);
  await side.signal({ from: "p", kind: "candidate", candidate: { candidate: "ignored" } });
  assert.equal(FakePeer.made.length, 0, "a candidate before any offer is ignored");
  await side.signal({ from: "p", kind: "offer", sdp: "v=0 offer" });
  const peer = FakePeer.made[0];
  assert.deepEqual(sent.at(-1), { type: "signal", to: "p", kind: "answer", sdp: "v=0 answer 0" });
  peer.ontrack({ track: "video", receiver: "receiver" });
  assert.deepEqual(tracks, [["video", "p"]]);
  assert.deepEqual(receivers, ["receiver"]);
  await side.signal({ from: "p", kind: "offer", sdp: "v=0 again" });
  assert.ok(peer.closed && FakePeer.made.length === 2);
  side.left("someone else");
  assert.ok(!FakePeer.made[1].closed);
  side.left("p");
  assert.ok(FakePeer.made[1].closed && side.connection === null);
});

test("a member's peer closes only once its track is no longer used, then its receiver is released", async () => {
  FakePeer.made = [];
  const order = [];
  let finish;
  const side = videoViewer({
    send: () => {}, createPeer: () => new FakePeer(),
    onTrack: () => () => new Promise((resolve) => { finish = () => { order.push("track"); resolve(); }; }),
    onReceiver: () => () => order.push("receiver"),
  });
  await side.signal({ from: "p", kind: "offer", sdp: "v=0 offer" });
  const peer = FakePeer.made[0];
  peer.ontrack({ track: "video", receiver: "receiver" });
  side.close();
  await settle();
  assert.ok(!peer.closed, "open while a frame may still be read");
  assert.deepEqual(order, []);
  finish();
  await settle();
  assert.deepEqual(order, ["track", "receiver"]);
  assert.ok(peer.closed);
});
