// Play with people (the lobby's queue): while she waits, poll GET /api/queue every
// 1.5 s (her heartbeat: a page that stops polling is out of the queue after 30 s), show
// how long she has waited, how many wait for each game and how many people are online,
// and go to her table as soon as she is seated there. Before she joins, the counts are
// refreshed every 5 s, and the table sizes offered follow the game chosen. Without this
// script the form still works and a reload shows the state.
import { nt, t } from "./i18n.js";

const section = document.getElementById("play-people");
if (section) {
  const labels = JSON.parse(section.dataset.labels || "{}");
  const games = document.getElementById("queue-games");
  const online = document.getElementById("queue-online");
  const waited = document.getElementById("queue-waited");
  const waiting = section.dataset.state === "waiting";

  const show = (state) => {
    online.textContent = nt("{n} person online", "{n} people online", state.online);
    games.replaceChildren(...state.games.map((g) => {
      const li = document.createElement("li");
      li.textContent = nt("{game}: {n} waiting", "{game}: {n} waiting", g.waiting,
                          { game: labels[`${g.ruleset}|${g.clock || ""}`] || g.ruleset });
      return li;
    }));
    if (waited && state.entry) {
      waited.textContent = t("{seconds} s", { seconds: Math.floor(state.entry.waited) });
    }
    const estimate = document.getElementById("queue-estimate");
    if (estimate && state.entry && state.entry.status === "waiting") {
      const e = state.entry.estimate;
      estimate.textContent = e === null ? t("Nobody near your strength waits for this game yet.")
        : e < 1 ? t("People near your strength are waiting: your table is being formed.")
          : t("About {seconds} s more, if the people waiting stay (you are paired near your game rating; the range widens as you wait).",
            { seconds: Math.round(e) });
    }
  };

  const poll = async () => {
    try {
      const answer = await fetch("/api/queue", { credentials: "same-origin",
                                                 headers: { Accept: "application/json" } });
      if (answer.ok) {
        const state = await answer.json();
        if (waiting && state.entry && state.entry.status === "seated") {
          window.location.assign(`/tables/${encodeURIComponent(state.entry.table)}`);
          return;
        }
        if (waiting && !state.entry) {  // left from another tab, or dropped: the form again
          window.location.reload();
          return;
        }
        show(state);
      }
    } catch (e) {
      // the network is away: the next poll tries again
    }
    setTimeout(poll, waiting ? 1500 : 5000);
  };
  setTimeout(poll, waiting ? 1000 : 5000);

  const form = document.getElementById("queue-form");
  if (form) {  // the sizes the chosen game is played at
    const game = form.querySelector("#qgame");
    const players = form.querySelector("#qplayers");
    const update = () => {
      const chosen = game.selectedOptions[0];
      const min = Number(chosen.dataset.min);
      const max = Number(chosen.dataset.max);
      for (const o of players.options) {
        o.disabled = o.value !== "any" && (Number(o.value) < min || Number(o.value) > max);
      }
      if (players.selectedOptions[0].disabled) players.value = "any";
    };
    game.addEventListener("change", update);
    update();
  }
}
