// The analysis beside the replay: what each analysed move cost, judged from what its
// player could know (fido.analysis, GET /api/tables/{id}/analysis). A player of the
// game asks for hers (POST); it runs in the server's analysis worker, so the page asks
// again every few seconds until it is done.

import { lang, nt, num, t } from "./i18n.js";
import { el } from "./ui.js";

const POLL_MS = 2000;
const NEAR = 0.05; // a loss below this is "the best move" (the estimate's own noise)
const ONE_POINT = 1; // a loss of this or more is a mistake on the margin's chart (report.NEAR)

const tenths = new Intl.NumberFormat(lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
// one decimal the page's way (1.5 / 1,5); || 0: no "-0.0" for a loss that rounds to nothing
const fmt = (x) => tenths.format(Math.round(x * 10) / 10 || 0);

export class Analysis {
  /** `seatName(i)`: a seat's name; `go(step)`: show that step of the replay. */
  constructor({ tableId, mySeat, csrf, seatName, go, onChange }) {
    Object.assign(this, { tableId, mySeat, csrf, seatName, go, onChange });
    this.bySeat = new Map(); // seat -> { status, result?, error? }
    this.byStep = new Map(); // move number -> decision
    this.better = {}; // move number -> where its better move would have lain (the server's drawing)
    this.timer = null;
    this.box = document.getElementById("analysis");
    this.button = document.getElementById("analyse");
    this.button.addEventListener("click", () => this.ask());
  }

  url() {
    return `/api/tables/${encodeURIComponent(this.tableId)}/analysis`;
  }

  async load() {
    try {
      const answer = await fetch(this.url(), { headers: { Accept: "application/json" } });
      if (!answer.ok) return;
      const body = await answer.json();
      this.better = body.better || {};
      this.apply(body.analyses || []);
    } catch { /* offline: the replay works without it */ }
  }

  apply(list) {
    for (const a of list) this.bySeat.set(a.seat, a);
    this.byStep.clear();
    for (const a of this.bySeat.values()) {
      if (a.status !== "done" || !a.result) continue;
      for (const d of a.result.decisions) this.byStep.set(d.number, d);
    }
    const busy = [...this.bySeat.values()].some((a) => a.status === "queued" || a.status === "running");
    clearTimeout(this.timer);
    if (busy) this.timer = setTimeout(() => this.load(), POLL_MS);
    this.renderSummary();
    this.onChange();
  }

  async ask() {
    this.button.disabled = true;
    this.status(t("Asking for the analysis…"));
    try {
      const answer = await fetch(this.url(), {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json",
          "X-CSRF-Token": this.csrf },
        body: JSON.stringify({ seat: this.mySeat }),
      });
      const body = await answer.json().catch(() => null);
      if (!answer.ok) {
        this.status(body?.error?.message ? t("Not now: {reason}.", { reason: body.error.message })
          : t("The analysis could not be asked for."));
        this.button.disabled = false;
        return;
      }
      this.apply([body]);
      if (body.status === "done") this.load(); // done already: with its better moves' places
    } catch {
      this.status(t("The server cannot be reached: try again in a moment."));
      this.button.disabled = false;
    }
  }

  status(text) {
    document.getElementById("analysis-status").textContent = text;
  }

  renderSummary() {
    const mine = this.mySeat === null || this.mySeat === undefined ? null : this.bySeat.get(this.mySeat);
    this.button.hidden = this.mySeat === null || this.mySeat === undefined
      || (mine && mine.status !== "failed");
    this.button.disabled = false;
    const parts = [];
    const waiting = [];
    for (const [seat, a] of [...this.bySeat.entries()].sort((x, y) => x[0] - y[0])) {
      const name = this.seatName(seat);
      const mine = seat === this.mySeat;  // hers: "your", never her own name in the third person
      if (a.status === "queued" || a.status === "running") {
        if (mine) {
          waiting.push(a.status === "queued" ? t("Your moves are being analysed (queued)…")
            : t("Your moves are being analysed…"));
        } else {
          waiting.push(a.status === "queued" ? t("{name}'s moves are being analysed (queued)…", { name })
            : t("{name}'s moves are being analysed…", { name }));
        }
      } else if (a.status === "failed") {
        waiting.push(mine ? t("Your analysis failed: {error}", { error: a.error })
          : t("{name}'s analysis failed: {error}", { name, error: a.error }));
      } else if (a.result) {
        parts.push(this.summaryOf(seat, a.result));
      }
    }
    document.getElementById("analysis-summary").replaceChildren(...parts);
    this.status(waiting.join(" ") || (parts.length ? ""
      : t("No analysis yet: a player of this game can ask for the analysis of her moves.")));
  }

  summaryOf(seat, result) {
    const s = result.summaries.find((x) => x.seat === seat);
    if (!s || result.nothing_to_analyse) {
      return el("p", { class: "analysis-seat", "data-seat": seat },
        result.message ? t("{name}: {message}", { name: this.seatName(seat), message: result.message })
          : t("{name}: nothing to analyse", { name: this.seatName(seat) }));
    }
    const worst = s.mistakes.slice(0, 5).map((n) => {
      const d = this.byStep.get(n);
      return el("button", { type: "button", class: "mistake", "data-step": n,
        onclick: () => this.go(n) }, t("move {n} −{loss}", { n: num(n), loss: fmt(d ? d.loss : 0) }));
    });
    const facts = [
      nt("{n} decision", "{n} decisions", s.decisions),
      t("{lost} ± {ci} points lost ({per} a decision)",
        { lost: fmt(s.lost), ci: fmt(s.lost_ci), per: fmt(s.lost_per_decision) }),
      s.within_one !== null && t("{percent}% within a point of the best",
        { percent: num(Math.round(s.within_one * 100)) }),
    ];
    return el("div", { class: "analysis-seat", "data-seat": seat },
      el("p", {}, el("b", {}, seat === this.mySeat ? t("Your moves") : this.seatName(seat)),
        `: ${facts.filter(Boolean).join(" · ")}`),
      worst.length ? el("p", { class: "mistakes" }, t("Biggest mistakes:"), " ", ...worst) : null,
      this.marginChart(result.decisions.filter((d) => d.seat === seat)));
  }

  /** Her expected margin over the game: after each of her decisions, the margin the
   * move she played was worth (a dot a decision, a red one where she lost a point or more; each
   * leads to its move). Drawn from the analysis's own numbers, no geometry of the table. */
  marginChart(decisions) {
    const points = decisions.map((d) => {
      const played = (d.moves || []).find((m) => m.move === d.played);
      return played ? { n: d.number, y: played.expected, lost: d.loss >= ONE_POINT } : null;
    }).filter(Boolean);
    if (points.length < 2) return null;
    const W = 320, H = 120, PAD = 18;
    const lo = Math.min(0, ...points.map((p) => p.y));
    const hi = Math.max(0, ...points.map((p) => p.y));
    const span = hi - lo || 1;
    const x = (i) => PAD + ((W - 2 * PAD) * i) / (points.length - 1);
    const y = (v) => H - PAD - ((H - 2 * PAD) * (v - lo)) / span;
    const svg = (tag, attrs) => {
      const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
      for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
      return node;
    };
    const chart = svg("svg", { class: "margin-chart", viewBox: `0 0 ${W} ${H}`, role: "img",
      "aria-label": t("Expected margin after each decision: from {first} to {last}",
        { first: fmt(points[0].y), last: fmt(points[points.length - 1].y) }) });
    chart.append(svg("line", { class: "zero", x1: PAD, x2: W - PAD, y1: y(0), y2: y(0) }));
    chart.append(svg("polyline", { points: points.map((p, i) => `${x(i).toFixed(1)},${y(p.y).toFixed(1)}`).join(" ") }));
    points.forEach((p, i) => {
      const dot = svg("circle", { cx: x(i).toFixed(1), cy: y(p.y).toFixed(1), r: 4,
        class: p.lost ? "lost" : "", "data-step": p.n, tabindex: 0 });
      const title = svg("title", {});
      title.textContent = t("move {n}: expected margin {margin}", { n: num(p.n), margin: fmt(p.y) });
      dot.append(title);
      dot.addEventListener("click", () => this.go(p.n));
      chart.append(dot);
    });
    return el("figure", { class: "margin" }, chart,
      el("figcaption", { class: "hint" }, t("Expected margin over the game (0: level with the others)")));
  }

  /** The better move of step `i` as a tile on the table, when the move played lost points. */
  betterTile(i) {
    const d = this.byStep.get(i);
    return d && d.loss >= NEAR ? this.better[String(i)] || null : null;
  }

  /** What the analysis says of the move of step `i` (empty when it has nothing). */
  renderStep(i) {
    const d = this.byStep.get(i);
    const box = document.getElementById("analysis-move");
    if (!d) {
      box.replaceChildren();
      box.hidden = true;
      return;
    }
    box.hidden = false;
    const exact = d.exact ? " " + t("(exact)") : ` (± ${fmt(d.loss_ci)})`;
    box.replaceChildren(
      el("span", { class: "label" }, t("Analysis")), " ",
      t("{name} played {move}:", { name: this.seatName(d.seat), move: d.played }), " ",
      ...(d.loss < NEAR ? [el("b", { class: "best" }, t("the best move"))]
        : [this.betterTile(i) ? t("best was {move} (green on the table),", { move: d.best })
          : t("best was {move},", { move: d.best }), " ",
          el("b", { class: "lost" }, t("{points} points lost", { points: fmt(d.loss) })), exact]));
  }

  /** Every analysed move of the move list gets what it cost. */
  markLog(list) {
    for (const li of list.children) {
      li.querySelector(".loss")?.remove();
      const d = this.byStep.get(Number(li.dataset.step));
      if (!d) continue;
      const button = li.firstElementChild;
      button.append(d.loss < NEAR
        ? el("span", { class: "loss best", title: t("the best move") }, " ✓")
        : el("span", { class: "loss", title: t("{points} points lost", { points: fmt(d.loss) }) },
          ` −${fmt(d.loss)}`));
    }
  }
}
