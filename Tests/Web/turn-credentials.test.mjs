// TURN credentials for a room's video (media/turn-credentials.js): asked for only when video
// starts, renewed before they expire, handed to every live peer connection, and never waited for
// longer than the answer's timeout.
import assert from "node:assert/strict";
import { test } from "node:test";
import { TurnCredentials, answerTimeout, renewBefore, retryAfterRefusal } from "../../Sources/ARVisServer/Web/Files/media/turn-credentials.js";

/// A clock and timers that move only when told.
function fakeTime() {
  let now = 1_000_000, next = 1;
  const timers = new Map();
  return {
    now: () => now,
    setTimer: (work, ms) => { timers.set(next, { at: now + ms, work }); return next++; },
    clearTimer: (id) => timers.delete(id),
    advance(ms) {
      now += ms;
      for (const [id, timer] of [...timers].sort((a, b) => a[1].at - b[1].at)) if (timer.at <= now) { timers.delete(id); timer.work(); }
    },
    pending: () => [...timers.values()].map((timer) => timer.at - now).sort((a, b) => a - b),
  };
}

const stun = [{ urls: ["stun:stun.example:3478"] }];
const withTurn = (expiresInSeconds, time) => ({
  type: "turnCredentials", expires: Math.floor(time.now() / 1000) + expiresInSeconds,
  iceServers: [...stun, { urls: ["turn:turn.example:3478"], username: "u", credential: "c" }],
});

test("a room without TURN starts video at once and asks for nothing", async () => {
  const time = fakeTime(), sent = [];
  const turn = new TurnCredentials(time);
  turn.welcome({ type: "welcome", iceServers: stun, turn: false });
  await turn.ready((message) => sent.push(message));
  assert.deepEqual(sent, []);
  assert.deepEqual(turn.servers, stun);
});

test("credentials are asked for once when video starts, then renewed before they expire", async () => {
  const time = fakeTime(), sent = [];
  const turn = new TurnCredentials(time);
  turn.welcome({ type: "welcome", iceServers: stun, turn: true });
  assert.deepEqual(turn.servers, stun, "the welcome carries no TURN credentials");
  const send = (message) => sent.push(message);
  const first = turn.ready(send), second = turn.ready(send);
  assert.deepEqual(sent, [{ type: "turnCredentials" }], "one request for both");
  const configured = [];
  const live = { connectionState: "connected", getConfiguration: () => ({ iceTransportPolicy: "relay" }), setConfiguration: (c) => configured.push(c) };
  const closed = { connectionState: "closed", getConfiguration: () => ({}), setConfiguration: () => assert.fail("a closed connection is left alone") };
  turn.track(live); turn.track(closed);
  assert.equal(turn.read(withTurn(1200, time)), true);
  await Promise.all([first, second]);
  assert.equal(turn.servers.length, 2);
  assert.deepEqual(configured, [{ iceTransportPolicy: "relay", iceServers: turn.servers }], "live connections get the new servers, their policy kept");
  assert.equal(turn.connections.has(closed), false);
  assert.deepEqual(time.pending(), [1200000 - renewBefore], "renewal is due two minutes before they expire");
  await turn.ready(send);
  assert.equal(sent.length, 1, "fresh credentials are not asked for again");
  time.advance(1200000 - renewBefore);
  assert.deepEqual(sent, [{ type: "turnCredentials" }, { type: "turnCredentials" }], "renewed over the socket");
  turn.read(withTurn(1200, time));
  turn.stop();
  assert.deepEqual(time.pending(), [], "no renewals once the video stops");
});

test("a request unanswered or refused lets video go on, and a refusal is retried later", async () => {
  const time = fakeTime(), sent = [];
  const turn = new TurnCredentials(time);
  turn.welcome({ type: "welcome", iceServers: stun, turn: true });
  const waiting = turn.ready((message) => sent.push(message));
  time.advance(answerTimeout);
  await waiting;
  assert.deepEqual(turn.servers, stun, "STUN alone after the timeout");
  const again = turn.ready((message) => sent.push(message));
  assert.equal(turn.read({ type: "refused", code: "tooManyCredentials", message: "slow down" }), true);
  await again;
  assert.deepEqual(time.pending(), [retryAfterRefusal]);
  assert.equal(turn.read({ type: "refused", code: "notFound", message: "no tree" }), false, "other refusals are not about TURN");
});

test("a new welcome (a reconnection, a new member id) asks again", async () => {
  const time = fakeTime(), sent = [];
  const turn = new TurnCredentials(time);
  turn.welcome({ type: "welcome", iceServers: stun, turn: true });
  const waiting = turn.ready((message) => sent.push(message));
  turn.welcome({ type: "welcome", iceServers: stun, turn: true });
  await waiting;
  assert.equal(turn.expires, 0);
  turn.ready((message) => sent.push(message));
  assert.equal(sent.length, 2);
});
