// The table page's match and what follows a game's end (docs/web.md): the running
// totals of a match (a line above the seats, a note in the log after each hand), the
// match's result with its hands, a team game's result by team, and "Play again".
// The server says everything (the table's `match`, `next`, `again`); this draws it.

import { KIND } from "./event_kinds.js";
import { nt, num, t } from "./i18n.js";
import { el } from "./ui.js";

const $ = (id) => document.getElementById(id);

/** "Match to 61 points" / "Match of 3 hands". */
export function goalText(match) {
  return match.kind === "points"
    ? nt("Match to {n} point", "Match to {n} points", match.goal)
    : nt("Match of {n} hand", "Match of {n} hands", match.goal);
}

function sideName(side, seatName) {
  return side.map((s) => seatName(s)).join(" + ");
}

/** Each side's total: "You + Carla 25 · Ben + bot (expert) 30". */
export function scoreText(match, seatName) {
  return match.sides.map((side, i) => `${sideName(side, seatName)} ${num(match.totals[i])}`)
    .join(" · ");
}

function wonText(match, seatName) {
  if (match.winner === null || match.winner === undefined) return t("The match ends level.");
  const side = match.sides[match.winner];
  return side.length > 1
    ? t("{names} won the match as a team.", { names: sideName(side, seatName) })
    : t("{name} won the match.", { name: sideName(side, seatName) });
}

/** Her line when the match is over: who won it, in her words ("your team won it"). */
export function matchOverText(match, seatName, mySeat) {
  if (match.winner === null || match.winner === undefined) {
    return t("The match is over: it ends level.");
  }
  const side = match.sides[match.winner];
  if (side.includes(mySeat)) {
    return side.length > 1 ? t("The match is over: your team won it.")
      : t("The match is over: you won it.");
  }
  return t("The match is over: {names} won it.", { names: sideName(side, seatName) });
}

/**
 * The match's line above the seats and, once a hand is counted, its note in the log
 * (`note(text)`, once a hand); the match's result with its hands when it is over.
 */
export function renderMatch(state, seatName, note) {
  const match = state.table && state.table.match;
  const line = $("match-line");
  line.hidden = !match;
  $("match-score").hidden = !match;
  if (!match) return;
  // the match's totals in the bar too: on a phone the seats' card is below her hand
  $("match-score").replaceChildren(el("span", { class: "label" }, t("Match")), " ",
    ...match.sides.flatMap((side, i) => [i ? " : " : "", el("b", {
      class: side.includes(state.seat) ? "mine" : "", "data-total": match.totals[i],
      title: sideName(side, seatName) }, num(match.totals[i]))]));
  line.replaceChildren(
    el("span", { class: "goal" }, t("{goal}, hand {hand}:", { goal: goalText(match), hand: num(match.hand) })),
    ...match.sides.map((side, i) => el("span", {
      class: `match-side${side.includes(state.seat) ? " mine" : ""}${match.over && match.winner === i ? " won" : ""}`,
      "data-total": match.totals[i] }, `${sideName(side, seatName)} `, el("b", {}, num(match.totals[i])))));
  line.dataset.totals = match.totals.join(",");
  const counted = match.hands >= match.hand;
  if (counted && state.matchNoted !== match.hand) {
    state.matchNoted = match.hand;
    note(t("After hand {hand}: {score}", { hand: num(match.hand), score: scoreText(match, seatName) }));
    if (match.over) note(wonText(match, seatName));
  }
  renderMatchResult(state, match, seatName);
}

function renderMatchResult(state, match, seatName) {
  const box = $("match-result");
  const over = Boolean(match.over && state.view && state.view.outcome);
  box.hidden = !over;
  if (!over) return;
  $("match-title").textContent = wonText(match, seatName);
  if (state.matchDetail && state.matchDetail.id === match.id) {
    drawHands(state.matchDetail, match, seatName);
    return;
  }
  if (state.matchAsked === match.id) return;
  state.matchAsked = match.id;
  fetch(`/api/matches/${encodeURIComponent(match.id)}`, { headers: { Accept: "application/json" } })
    .then((answer) => (answer.ok ? answer.json() : null))
    .then((detail) => {
      if (!detail) return;
      state.matchDetail = detail;
      drawHands(detail, match, seatName);
    })
    .catch(() => { state.matchAsked = null; });
}

/** The match's hands, one row each: what each side made, and the totals below. */
function drawHands(detail, match, seatName) {
  $("match-head").replaceChildren(el("tr", {}, el("th", { scope: "col" }, t("Hand")),
    ...match.sides.map((side) => el("th", { scope: "col" }, sideName(side, seatName)))));
  $("match-rows").replaceChildren(...detail.tables.map((h) => el("tr", { "data-table": h.table },
    el("td", {}, el("a", { href: `/tables/${h.table}` }, num(h.hand))),
    ...match.sides.map((_side, i) => el("td", {}, h.match_points ? num(h.match_points[i]) : "–")))));
  $("match-foot").replaceChildren(el("tr", {}, el("th", { scope: "row" }, t("Total")),
    ...match.totals.map((total, i) => el("td", { class: i === match.winner ? "won" : "",
      "data-total": total }, num(total)))));
}

/** A team game's result: one row a team (its total and place), its players below. */
export function teamRows(outcome, seatName, mySeat) {
  const rows = [];
  const teams = [...outcome.teams].sort((a, b) => a.place - b.place);
  for (const team of teams) {
    rows.push(el("tr", { class: "team", "data-team": team.seats.join(","), "data-final": team.final },
      el("td", {}, num(team.place)),
      el("th", { scope: "row" }, t("Team {names}", { names: sideName(team.seats, seatName) })),
      el("td", {}, num(team.points)), el("td", {}, num(team.bonus)), el("td", {}, num(team.pips)),
      el("td", { class: "final" }, num(team.final))));
    for (const r of outcome.seats.filter((x) => team.seats.includes(x.seat))) {
      rows.push(el("tr", { class: `member${r.seat === mySeat ? " mine" : ""}`, "data-seat": r.seat,
        "data-final": r.final },
      el("td", {}, ""), el("th", { scope: "row" }, seatName(r.seat)),
      el("td", {}, num(r.points)), el("td", {}, num(r.bonus)), el("td", {}, num(r.pips)),
      el("td", { class: "final" }, num(r.final))));
    }
  }
  const best = teams.filter((x) => x.place === 1);
  const said = best.length === 1
    ? t("{names} won as a team, with {final}.", { names: sideName(best[0].seats, seatName),
      final: num(best[0].final) })
    : t("The teams end level.");
  return { rows, said };
}

/** What a log note says of a match's or a rematch's event (null: nothing). */
export function matchNote(e, seatName, table) {
  const match = table && table.match;
  if (e.kind === KIND.START && match && match.hand > 1) {
    return t("Hand {hand}; the match so far: {score}", { hand: num(match.hand), score: scoreText(match, seatName) });
  }
  if (e.kind === KIND.AGAIN) return t("{name} wants to play again", { name: seatName(e.seat) });
  if (e.kind === KIND.NEXT) return t("Everyone goes on to the next table");
  return null;
}

let leaving = false;

/** The page goes on to table `id`, once: the socket's `next` event and the answer to
 * her yes both name it, and a second navigation would abort the first. */
export function goToTable(id) {
  if (leaving) return;
  leaving = true;
  location.assign(`/tables/${encodeURIComponent(id)}`);
}

/** A `next` event as it happens: the page goes on to that table. */
export function followNext(e, catchingUp) {
  if (e.kind === KIND.NEXT && !catchingUp && e.table) goToTable(e.table);
}

/**
 * After a game (or a match) is over: "Play again" for her, who said yes (for everyone),
 * the creator's choice of bots for those who left, and the way to the next table.
 */
export function renderAgain(state, seatName, ask) {
  const table = state.table;
  const view = state.view;
  const match = table && table.match;
  const ended = Boolean(view && view.outcome);
  const next = $("next-hand");
  const box = $("again-box");
  if (!table || !ended) {
    box.hidden = true;
    next.hidden = true;
    return;
  }
  if (table.next) {
    next.hidden = false;
    next.replaceChildren(el("a", { href: `/tables/${encodeURIComponent(table.next)}`, class: "button primary" },
      match && !match.over ? t("Go to the next hand") : t("Go to the new table")));
  } else if (match && !match.over) {
    next.hidden = false;
    next.textContent = t("The next hand is dealt in a moment…");
  } else {
    next.hidden = true;
  }
  const again = table.again || { yes: [], creator: null, bots: false };
  box.hidden = Boolean(table.next) || Boolean(match && !match.over);
  if (box.hidden) return;
  const seated = state.seat !== null && state.seat !== undefined;
  const said = again.yes.includes(state.seat);
  const declined = (again.no || []).includes(state.seat);
  const button = $("again");
  button.hidden = !seated || said;
  button.disabled = Boolean(state.askingAgain);
  button.onclick = () => ask(Boolean($("again-bots").checked));
  const noButton = $("again-no");
  noButton.hidden = !seated || said || declined;
  noButton.disabled = Boolean(state.askingAgain);
  noButton.onclick = () => ask(false, false);
  $("again-bots-label").hidden = !seated || said || state.seat !== again.creator || table.rated;
  const nos = (again.no || []).length
    ? " " + t("Declined: {names}.", { names: again.no.map((s) => seatName(s)).join(", ") }) : "";
  $("again-said").textContent = (again.yes.length
    ? t("Said yes: {names}.", { names: again.yes.map((s) => seatName(s)).join(", ") })
      + (said ? ` ${t("Waiting for the others…")}` : "")
    : seated && !declined
      ? t("Play the same table again: it starts when everyone still here has said yes.") : "")
    + nos;
}
