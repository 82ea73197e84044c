// Messages as the server sends them to a match page (docs/protocol.md), for the fold's tests.

export const MATCH = 7;
export const anna = { id: 1, name: "anna" };
export const bert = { id: 2, name: "bert" };

// A snapshot of a two-seat tafl match at event `seq`, seen from `your_seats`; `over` changes any
// field of the snapshot.
export function snapshot(seq, over = {}) {
  return {
    type: "snapshot",
    match_id: MATCH,
    seq,
    snapshot: {
      game: "tafl",
      variant: "brandubh",
      rated: false,
      clock: { base_ms: 300000, increment_ms: 3000 },
      seats: [
        { player: anna, connected: true, clock_ms: 300000 },
        { player: bert, connected: true, clock_ms: 300000 },
      ],
      your_seats: [0],
      to_act: [0],
      view: { position: "start" },
      actions: [],
      takebacks: true,
      ...over,
    },
  };
}

export const event = (seq, event, match_id = MATCH) => ({ type: "event", match_id, seq, event });

// Seat `seat` played `action`, the other seat to act, the clocks as given.
export const acted = (seq, seat, action, clocks_ms = [300000, 300000]) =>
  event(seq, { kind: "acted", seat, action, view: { after: action }, to_act: [1 - seat], clocks_ms });
