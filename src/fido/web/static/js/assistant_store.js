// The table assistant's game as this browser keeps it (localStorage): the
// setup, who opened, the moves entered, the pips at the end. The server keeps
// nothing: every change is judged by POST /api/assistant/state with all of it.

import { t } from "./i18n.js";

export const KEY = "fido.assistant.game";

/** The game in progress, or null. */
export function loadGame() {
  try {
    const g = JSON.parse(localStorage.getItem(KEY) || "null");
    return g && g.setup && Array.isArray(g.moves) ? g : null;
  } catch {
    return null;
  }
}

export function saveGame(game) {
  localStorage.setItem(KEY, JSON.stringify(game));
}

/** The body of POST /api/assistant/state for `game`. */
export function requestBody(game) {
  const body = { ...game.setup, opener: game.opener, moves: game.moves };
  if (game.pips) body.pips = game.pips;
  return body;
}

/** POST JSON; { ok, status, body } or throws when the network is down. */
export async function post(url, body, headers = {}) {
  const answer = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json", ...headers },
    body: JSON.stringify(body),
  });
  let data = null;
  try { data = await answer.json(); } catch { /* not JSON */ }
  return { ok: answer.ok, status: answer.status, body: data };
}

export function errorText(answer) {
  return answer.body?.error?.message || t("the server answered {status}", { status: answer.status });
}
