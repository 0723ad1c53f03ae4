// The create-table form: show the options of the chosen game, as many seat
// choices as players, a name field for a reserved seat. Without this script
// every field shows and the form still works.

const form = document.getElementById("create-form");
if (form) {
  const game = form.querySelector("#game");
  const set = form.querySelector("#set");
  const divisor = form.querySelector("#divisor");
  const players = form.querySelector("#players");

  const update = () => {
    const chosen = game.selectedOptions[0];
    const flags = (chosen.dataset.flags || "").split(" ");
    for (const el of form.querySelectorAll("[data-for-game]")) {
      el.hidden = el.dataset.forGame !== game.value;
    }
    for (const el of form.querySelectorAll("[data-flag]")) {
      el.hidden = !flags.includes(el.dataset.flag);
    }
    form.querySelector("fieldset.flags").hidden = !flags.some(Boolean);
    const min = Number(chosen.dataset.min);
    const max = Number(chosen.dataset.max);
    for (const o of players.options) o.disabled = Number(o.value) < min || Number(o.value) > max;
    if (players.selectedOptions[0].disabled) players.value = String(Math.min(max, Math.max(min, 4)));
    divisor.placeholder = set.selectedOptions[0].dataset.divisor;
    const n = Number(players.value);
    for (const row of form.querySelectorAll(".seat-choice")) {
      const i = Number(row.dataset.seat);
      row.hidden = i >= n;
      row.querySelector("select").disabled = i >= n;
      const reserved = row.querySelector(".seat-kind").value === "reserved";
      row.querySelector(".reserved-name").hidden = !reserved;
    }
  };
  // the match's length: the number it needs, the game's own target as the default
  const match = form.querySelector("#match");
  const showLength = () => {
    if (!match) return;
    for (const el of form.querySelectorAll("[data-match]")) el.hidden = el.dataset.match !== match.value;
    const target = game.selectedOptions[0].dataset.target;
    form.querySelector("#target").placeholder = target || "100";
    form.querySelector("#target").required = match.value === "points" && !target;
    form.querySelector("#target-hint").hidden = !target;
  };
  form.addEventListener("change", showLength);
  showLength();
  form.addEventListener("change", update);
  update();
}
