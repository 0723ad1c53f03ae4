// Her turn, wherever she is: the tab's title and icon say "your turn" while it is
// hers (and go back after her move); with the sound switch on, a short chime; and,
// when she has turned notifications on (off by default, the browser's permission asked
// once, when she turns them on; kept in localStorage), a notification while the tab is
// hidden. The table page tells it whether it is her turn after every render
// (table.js); every signal given is kept in `log` for the tests.

import { t } from "./i18n.js";

const KEY = "fido.notify";
const MARK = "\u25cf "; // a dot before the title: seen in a row of tabs

const TURN_ICON = "/static/favicon-turn.svg"; // the site's icon with a red dot

export class TurnSignals {
  /** `toggle`: the notifications checkbox; `effects`: the page's Effects (its sound switch). */
  constructor(toggle, effects) {
    this.toggle = toggle;
    this.effects = effects;
    this.log = [];
    this.mine = false;
    this.title = document.title;
    this.icon = document.querySelector("link[rel~='icon']");
    if (!this.icon) {
      this.icon = Object.assign(document.createElement("link"), { rel: "icon", href: "/static/favicon.svg" });
      document.head.append(this.icon);
    }
    this.baseIcon = this.icon.getAttribute("href");
    let stored = null;
    try { stored = localStorage.getItem(KEY); } catch { /* storage off: the default */ }
    this.notify = stored === "on" && this.permission() === "granted";
    if (toggle) {
      toggle.checked = this.notify;
      toggle.hidden = !("Notification" in window);
      toggle.addEventListener("change", () => this.turnOn(toggle.checked));
    }
    document.addEventListener("visibilitychange", () => {
      if (!document.hidden) this.note?.close?.();
    });
  }

  permission() {
    return "Notification" in window ? Notification.permission : "denied";
  }

  /** Her switch: on asks the browser's permission (once: the browser remembers her answer). */
  async turnOn(on) {
    let ok = on;
    if (on && this.permission() === "default") {
      try { ok = (await Notification.requestPermission()) === "granted"; } catch { ok = false; }
    } else if (on) ok = this.permission() === "granted";
    this.notify = ok;
    if (this.toggle) this.toggle.checked = ok;
    try { localStorage.setItem(KEY, ok ? "on" : "off"); } catch { /* not kept */ }
  }

  /** After every render: whether it is her turn now (`what`: the turn line, for the notification). */
  update(mine, what = "") {
    if (mine === this.mine) return;
    this.mine = mine;
    document.title = mine ? MARK + t("Your turn · {title}", { title: this.title }) : this.title;
    this.icon.setAttribute("href", mine ? TURN_ICON : this.baseIcon);
    if (!mine) return;
    const hidden = document.hidden;
    const signal = { sound: Boolean(this.effects?.sound), notified: false, hidden };
    if (signal.sound) {
      try { chime(this.effects.context()); } catch { /* no audio here */ }
    }
    if (this.notify && hidden && this.permission() === "granted") {
      try {
        this.note = new Notification(t("Your turn"), { body: what, tag: "fido-turn", icon: this.baseIcon });
        this.note.onclick = () => { window.focus(); this.note.close(); };
        signal.notified = true;
      } catch { /* a browser that shows them only from a service worker */ }
    }
    this.log.push(signal);
  }
}

/** Two soft rising tones: her turn. */
function chime(ctx) {
  if (!ctx) return;
  const at = ctx.currentTime + 0.01;
  [[660, 0], [880, 0.14]].forEach(([freq, after]) => {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = "sine";
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, at + after);
    gain.gain.exponentialRampToValueAtTime(0.25, at + after + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + after + 0.3);
    osc.connect(gain).connect(ctx.destination);
    osc.start(at + after);
    osc.stop(at + after + 0.32);
  });
}
