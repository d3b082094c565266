// Video in a room, peer to peer: the publisher offers its camera track to each member (up to
// `maxPeers`; beyond, through the room's SFU when the server has one), and each member answers; offers, answers and ICE candidates travel as the room's
// `signal` messages (docs/video.md). The browser's WebRTC objects are handed in (`createPeer`), so
// the negotiation is the same in a page and in a test.

/// The most members a publisher sends video to directly.
export const maxPeers = 3;

/// One peer connection and the ICE candidates that came before its remote description.
function peerOf(createPeer, to, send) {
  const connection = createPeer();
  const peer = { connection, pending: [], described: false };
  connection.onicecandidate = (event) => send({ type: "signal", to, kind: "candidate", candidate: event.candidate ? event.candidate.toJSON() : null });
  return peer;
}

/// Applies a candidate now, or once the remote description is set.
async function addCandidate(peer, candidate) {
  if (!peer.described) { peer.pending.push(candidate); return; }
  await peer.connection.addIceCandidate(candidate === null ? null : candidate);
}

/// Releases what was attached to a peer, then closes its connection — once that release is done,
/// when it returns a promise (a viewer stops reading frames before its track ends:
/// media/frame-stream.js).
function release(peer) {
  const detach = peer.release;
  peer.release = null;
  const detached = typeof detach === "function" ? detach() : null;
  if (detached && typeof detached.then === "function") detached.catch(() => {}).finally(() => peer.connection.close());
  else peer.connection.close();
}

async function describe(peer, description) {
  await peer.connection.setRemoteDescription(description);
  peer.described = true;
  for (const candidate of peer.pending.splice(0)) await peer.connection.addIceCandidate(candidate);
}

/// The publisher's side. `track`, `stream`: the camera's; `send(message)`: to the room's socket;
/// `createPeer()`: a new RTCPeerConnection; `onSender(sender, connection)`: attaches the frame
/// metadata, and may return a function that releases it when the peer goes. `maxPeers`: the most
/// members sent to directly; `sfu`: the id of the room's SFU, if it has one — the camera is then
/// sent to it once for every member beyond `maxPeers`, which the server has forward it (those members
/// are told `wait`, as without an SFU).
/// Returns {welcome(message), joined(member), left(id), signal(message), close(), peers (Map id →
/// RTCPeerConnection), waiting (ids beyond maxPeers)}.
export function videoPublisher({ track, stream, send, createPeer, onSender = () => {}, maxPeers: most = maxPeers, sfu = null }) {
  const peers = new Map(), waiting = [];
  let retry = 0;
  const direct = () => peers.size - (sfu !== null && peers.has(sfu) ? 1 : 0);

  async function offer(id) {
    if (peers.has(id)) return;
    if (direct() >= most) {
      if (!waiting.includes(id)) { waiting.push(id); send({ type: "signal", to: id, kind: "wait" }); }
      if (sfu !== null) await connect(sfu);
      return;
    }
    await connect(id);
  }

  async function connect(id) {
    if (peers.has(id)) return;
    const peer = peerOf(createPeer, id, send);
    peers.set(id, peer);
    // A peer that can no longer connect gives its place to the next one waiting.
    peer.connection.onconnectionstatechange = () => {
      if (peers.get(id) === peer && peer.connection.connectionState === "failed") { send({ type: "signal", to: id, kind: "bye" }); drop(id); }
    };
    peer.release = onSender(peer.connection.addTrack(track, stream), peer.connection) || null;
    await peer.connection.setLocalDescription(await peer.connection.createOffer());
    send({ type: "signal", to: id, kind: "offer", sdp: peer.connection.localDescription.sdp });
  }

  function drop(id) {
    const peer = peers.get(id);
    const index = waiting.indexOf(id);
    if (index >= 0) waiting.splice(index, 1);
    if (!peer) return;
    release(peer);
    peers.delete(id);
    if (id === sfu) {
      // The SFU lost the camera (it restarted, or the path failed): send it again while members
      // wait for it.
      clearTimeout(retry);
      retry = setTimeout(() => { if (waiting.length) connect(sfu); }, 1000);
    } else if (waiting.length) offer(waiting.shift());
  }

  return {
    get peers() { return new Map([...peers].map(([id, peer]) => [id, peer.connection])); },
    waiting,
    /// Offers video to everyone already in the room.
    welcome(message) { for (const member of message.members || []) if (member.role !== "publisher") offer(member.id); },
    joined(member) { if (member.role !== "publisher") offer(member.id); },
    left: drop,
    async signal(message) {
      const peer = peers.get(message.from);
      if (!peer) return;
      if (message.kind === "answer") await describe(peer, { type: "answer", sdp: message.sdp });
      else if (message.kind === "candidate") await addCandidate(peer, message.candidate);
      else if (message.kind === "bye") drop(message.from);
    },
    close() {
      clearTimeout(retry);
      for (const [id, peer] of peers) { send({ type: "signal", to: id, kind: "bye" }); release(peer); }
      peers.clear();
      waiting.length = 0;
    },
  };
}

/// A member's side: answers the publisher's offer and hands its track to `onTrack(track, from)`,
/// which may return a function that stops using the track when the peer goes (returning a promise:
/// the peer's connection closes once it settles); `onWait(from)` when the publisher has no place
/// for it yet (an offer follows when one frees). `accepts(from)`: whether an offer from that member
/// is taken (only publishers' are). `onReceiver(receiver)` strips the frame metadata, and may return
/// a function that releases it when the peer goes. Returns {signal(message), left(id), close()}.
export function videoViewer({ send, createPeer, onTrack, onReceiver = () => {}, onWait = () => {}, accepts = () => true }) {
  let peer = null, from = null;

  function close() {
    if (peer) release(peer);
    peer = null;
    from = null;
  }

  return {
    get connection() { return peer ? peer.connection : null; },
    async signal(message) {
      if (message.kind === "offer") {
        if (!accepts(message.from)) return;
        // A new offer (the publisher came back, or renegotiates from scratch) replaces the peer;
        // another publisher's is told it was left.
        if (from !== null && from !== message.from) send({ type: "signal", to: from, kind: "bye" });
        close();
        const sender = (from = message.from);
        const current = (peer = peerOf(createPeer, sender, send));
        current.connection.ontrack = (event) => {
          const detachReceiver = onReceiver(event.receiver), detachTrack = onTrack(event.track, sender);
          const releaseReceiver = typeof detachReceiver === "function" ? detachReceiver : () => {};
          // The track first (it may take a frame's time), then the receiver, then the connection.
          current.release = typeof detachTrack === "function" ? () => Promise.resolve(detachTrack()).then(releaseReceiver, releaseReceiver) : releaseReceiver;
        };
        await describe(current, { type: "offer", sdp: message.sdp });
        const answer = await current.connection.createAnswer();
        if (peer !== current) return;  // replaced by a newer offer meanwhile
        await current.connection.setLocalDescription(answer);
        if (peer !== current) return;
        send({ type: "signal", to: sender, kind: "answer", sdp: current.connection.localDescription.sdp });
      } else if (message.kind === "wait") {
        onWait(message.from);
      } else if (peer && message.from === from) {
        if (message.kind === "candidate") await addCandidate(peer, message.candidate);
        else if (message.kind === "bye") close();
      }
    },
    left(id) { if (id === from) close(); },
    close,
  };
}
