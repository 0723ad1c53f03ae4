// The kinds of a table's log events (docs/protocol.md, "Events"): the server's
// fido.server.tables.kinds.Kind, name for name (tests/test_protocol_v2.py holds them equal).
// The page scripts compare an event's `kind` with these, never with a bare string.

export const KIND = Object.freeze({
  JOIN: "join",
  LEAVE: "leave",
  START: "start",
  MOVE: "move",
  END: "end",
  CHAT: "chat",
  AWAY: "away",
  BACK: "back",
  AGAIN: "again",
  DECLINE: "decline",
  NEXT: "next",
  VACATION: "vacation",
});
