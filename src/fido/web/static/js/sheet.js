// The score sheet form: each line's final (points - pips) as it is typed, and the
// chosen set's divisor as the divisor's placeholder. The form works without it:
// the server shows the finals again with any error.
const form = document.getElementById("sheet-form");
if (form) {
  const whole = (text) => (/^\d+$/.test(text.trim()) ? Number(text) : null);
  const update = (row) => {
    const points = whole(form.elements[`points${row}`].value);
    const pips = whole(form.elements[`pips${row}`].value);
    const out = form.querySelector(`output[name=final${row}]`);
    if (out) out.value = points !== null && pips !== null ? String(points - pips) : "";
  };
  form.addEventListener("input", (event) => {
    const line = event.target.closest(".line[data-row]");
    if (line) update(line.dataset.row);
  });
  const set = document.getElementById("set");
  const divisor = document.getElementById("divisor");
  set?.addEventListener("change", () => {
    divisor.placeholder = set.selectedOptions[0]?.dataset.divisor || "";
  });
}
