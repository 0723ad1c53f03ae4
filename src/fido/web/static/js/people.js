// The people page (docs/people.md): while it is open, ask GET /api/challenges every 4 s.
// A challenge of hers accepted: go to its table (the other accepted it: both are seated
// there). A challenge to her that came or went: show the page again, unless she is
// filling in a challenge. Without this script the page works; a reload shows the state.
const page = document.getElementById("people");
// the game whose ratings the list shows: chosen, shown at once
const game = document.querySelector(".people-game select");
if (game) game.addEventListener("change", () => game.form.submit());
if (page && page.dataset.me) {
  const shown = (list) => list.map((c) => `${c.id}:${c.status}`).join(",");
  let incoming = null;
  let outgoing = null;
  const busy = () => Boolean(document.querySelector("details.challenge-form[open]"))
    || (document.activeElement && document.activeElement.closest("form"));

  const poll = async () => {
    try {
      const answer = await fetch("/api/challenges", { headers: { Accept: "application/json" } });
      if (answer.ok) {
        const state = await answer.json();
        const accepted = state.outgoing.find((c) => c.status === "accepted" && c.table
          && outgoing !== null && !outgoing.includes(`${c.id}:accepted`));
        if (accepted) {
          window.location.assign(`/tables/${encodeURIComponent(accepted.table)}`);
          return;
        }
        const nowIn = shown(state.incoming);
        const nowOut = shown(state.outgoing);
        if (incoming !== null && (nowIn !== incoming || nowOut !== outgoing) && !busy()) {
          window.location.reload();
          return;
        }
        incoming = nowIn;
        outgoing = nowOut;
      }
    } catch {
      // the network is away: the next poll tries again
    }
    setTimeout(poll, 4000);
  };
  poll();
}
