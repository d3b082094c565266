// TURN credentials for a room's video (docs/video.md). A room's `welcome` carries its STUN servers
// and whether it has TURN (`turn`); a member asks for TURN credentials (`{"type":
// "turnCredentials"}`) only when it starts video, and again before they expire, and every live peer
// connection it made is given the new servers. Pure: the clock and the timers are handed in.

/// How long before they expire credentials are asked for again, in milliseconds.
export const renewBefore = 120000;
/// How long a request waits for its answer before video goes on without TURN, in milliseconds.
export const answerTimeout = 5000;
/// How long after a refusal (the server has no TURN, or the account asked too often) to ask again.
export const retryAfterRefusal = 60000;

/// The refusal codes that answer a request for credentials.
const refusals = new Set(["turnUnavailable", "tooManyCredentials"]);

export class TurnCredentials {
  /// `now()`: the time in milliseconds; `setTimer(work, ms)`, `clearTimer(timer)`: as setTimeout.
  constructor({ now = () => Date.now(), setTimer = (work, ms) => setTimeout(work, ms), clearTimer = (timer) => clearTimeout(timer) } = {}) {
    Object.assign(this, { now, setTimer, clearTimer });
    this.offered = false;
    this.stun = [];
    this.servers = [];
    this.expires = 0;
    this.connections = new Set();
    this.wanted = false;
    this.send = null;
    this.waiting = null;
    this.answered = null;
    this.renewal = 0;
  }

  /// A new welcome (a new connection, a new member id): its STUN servers, and credentials to ask
  /// for again.
  welcome(message) {
    this.offered = Boolean(message.turn);
    this.stun = message.iceServers || [];
    this.servers = this.stun;
    this.expires = 0;
    this.clearTimer(this.renewal);
    if (this.answered) this.answered();
  }

  /// Settles once video may start: at once when the room has no TURN or the credentials held have
  /// more than `renewBefore` left, else once new ones come (or `answerTimeout` passes without
  /// them, when video goes on with STUN alone). `send(message)`: to the room's socket, kept for
  /// the renewals.
  ready(send) {
    this.send = send;
    this.wanted = true;
    if (!this.offered || this.expires - this.now() > renewBefore) return Promise.resolve();
    return this.request();
  }

  /// Keeps `connection` (an RTCPeerConnection) up to date with renewed credentials; returns it.
  track(connection) {
    this.connections.add(connection);
    return connection;
  }

  /// Reads a room message; true when it was about TURN credentials.
  read(message) {
    if (message.type === "turnCredentials") {
      this.servers = message.iceServers || this.stun;
      this.expires = message.expires * 1000;
      this.update();
      this.schedule(Math.max(30000, this.expires - this.now() - renewBefore));
      if (this.answered) this.answered();
      return true;
    }
    if (message.type === "refused" && refusals.has(message.code)) {
      this.schedule(retryAfterRefusal);
      if (this.answered) this.answered();
      return true;
    }
    return false;
  }

  /// No more video: no more renewals.
  stop() {
    this.wanted = false;
    this.clearTimer(this.renewal);
  }

  request() {
    if (!this.waiting) {
      this.waiting = new Promise((resolve) => {
        const timer = this.setTimer(() => this.answered(), answerTimeout);
        this.answered = () => { this.clearTimer(timer); this.waiting = this.answered = null; resolve(); };
      });
      this.send({ type: "turnCredentials" });
    }
    return this.waiting;
  }

  /// Gives every live connection the current servers (for the candidates it gathers from now on:
  /// a TURN server keeps the allocations it made with the older credentials).
  update() {
    for (const connection of [...this.connections]) {
      if (connection.connectionState === "closed") { this.connections.delete(connection); continue; }
      try { connection.setConfiguration({ ...connection.getConfiguration(), iceServers: this.servers }); } catch (error) { console.warn("A peer connection kept its TURN servers:", error); }
    }
  }

  schedule(delay) {
    this.clearTimer(this.renewal);
    if (this.wanted) this.renewal = this.setTimer(() => { if (this.wanted && this.send) this.request(); }, delay);
  }
}
