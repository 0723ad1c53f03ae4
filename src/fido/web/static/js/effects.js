// The Rostock knock and the Basel wipe (docs/rules.md): after a double is laid
// in a FIDO game the table knocks, unless the double scored: then the knock is
// wiped. The engine names these events (fido.announcements.events_of); the server
// sends them with each move (its event's table_event) and each replay step, so
// no page repeats the rule (tests/web/test_web_extras.py checks what is played).
//
// Shown as a short badge over the board and a pulse of the tile, and heard as
// a short sound generated with the Web Audio API (no sound files). The sound
// is OFF by default: a game often runs in a shared room or beside a screen
// reader, a page that starts making noise surprises people, and browsers
// refuse to start audio before a click anyway. The switch (a checkbox) is
// remembered in localStorage. prefers-reduced-motion keeps the badge still
// (CSS): the event is still shown, without movement.

import { t } from "./i18n.js";

const KEY = "fido.sound";

/** The badge's word for an event: "Knock!". */
function eventWord(kind) {
  return kind === "knock" ? t("Knock!") : kind === "wipe" ? t("Wiped!") : "";
}

/** The name a screen reader announces for an event: "Rostock knock". */
export function eventName(kind) {
  return kind === "knock" ? t("Rostock knock") : kind === "wipe" ? t("Basel wipe") : "";
}

/** An event in a move list, in one word: "knock". */
export function eventShort(kind) {
  return kind === "knock" ? t("knock") : kind === "wipe" ? t("wipe") : kind;
}

/**
 * Plays the events on `box` (the element that holds the board and the badge)
 * and keeps the sound switch `toggle` (a checkbox) in localStorage. Every event
 * played is kept in `log` ({ kind, sound, motion }) for the tests.
 */
export class Effects {
  constructor(box, badge, toggle) {
    this.box = box;
    this.badge = badge;
    this.toggle = toggle;
    this.audio = null;
    this.log = [];
    this.timer = null;
    this.queue = [];
    this.busy = false;
    this.motion = window.matchMedia ? !window.matchMedia("(prefers-reduced-motion: reduce)").matches : true;
    let stored = null;
    try { stored = localStorage.getItem(KEY); } catch { /* storage off: the default */ }
    this.sound = stored === "on";
    if (toggle) {
      toggle.checked = this.sound;
      toggle.addEventListener("change", () => {
        this.sound = toggle.checked;
        try { localStorage.setItem(KEY, this.sound ? "on" : "off"); } catch { /* not kept */ }
        if (this.sound) this.context(); // the click is the gesture that lets audio start
      });
    }
  }

  context() {
    if (!this.audio) {
      const Ctx = window.AudioContext || window.webkitAudioContext;
      if (!Ctx) return null;
      this.audio = new Ctx();
    }
    if (this.audio.state === "suspended") this.audio.resume().catch(() => {});
    return this.audio;
  }

  /** Show (and with the switch on, sound) a knock or a wipe; several in a row one after another. */
  play(kind, about = {}) {
    if (kind !== "knock" && kind !== "wipe") return;
    this.queue.push([kind, about]);
    if (!this.busy) this.next();
  }

  next() {
    const item = this.queue.shift();
    this.busy = Boolean(item);
    if (!item) return;
    this.show(...item);
    setTimeout(() => this.next(), 550);
  }

  show(kind, about) {
    this.log.push({ kind, sound: this.sound, motion: this.motion, ...about });
    this.badge.textContent = eventWord(kind);
    this.badge.title = eventName(kind);
    for (const node of [this.box, this.badge]) {
      node.classList.remove("fx-knock", "fx-wipe");
      void node.getBoundingClientRect(); // restart the animation when two come in a row
      node.classList.add(`fx-${kind}`);
    }
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      for (const node of [this.box, this.badge]) node.classList.remove("fx-knock", "fx-wipe");
    }, 1400);
    if (this.sound) {
      try { (kind === "knock" ? knock : wipe)(this.context()); } catch { /* no audio here */ }
    }
  }
}

/** Two dull knocks on a wooden table: a falling low tone and a short click each. */
function knock(ctx) {
  if (!ctx) return;
  const t0 = ctx.currentTime + 0.01;
  for (const at of [t0, t0 + 0.16]) {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = "triangle";
    osc.frequency.setValueAtTime(190, at);
    osc.frequency.exponentialRampToValueAtTime(70, at + 0.09);
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(0.5, at + 0.005);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.14);
    osc.connect(gain).connect(ctx.destination);
    osc.start(at);
    osc.stop(at + 0.16);
    const click = noise(ctx, 0.03);
    const filter = ctx.createBiquadFilter();
    filter.type = "lowpass";
    filter.frequency.value = 1400;
    const g2 = ctx.createGain();
    g2.gain.setValueAtTime(0.25, at);
    g2.gain.exponentialRampToValueAtTime(0.0001, at + 0.03);
    click.connect(filter).connect(g2).connect(ctx.destination);
    click.start(at);
  }
}

/** A wipe across the table: noise through a band that sweeps upwards. */
function wipe(ctx) {
  if (!ctx) return;
  const at = ctx.currentTime + 0.01;
  const src = noise(ctx, 0.45);
  const band = ctx.createBiquadFilter();
  band.type = "bandpass";
  band.Q.value = 1.4;
  band.frequency.setValueAtTime(500, at);
  band.frequency.exponentialRampToValueAtTime(3800, at + 0.4);
  const gain = ctx.createGain();
  gain.gain.setValueAtTime(0.0001, at);
  gain.gain.exponentialRampToValueAtTime(0.35, at + 0.08);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.42);
  src.connect(band).connect(gain).connect(ctx.destination);
  src.start(at);
}

function noise(ctx, seconds) {
  const buffer = ctx.createBuffer(1, Math.ceil(ctx.sampleRate * seconds), ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < data.length; i++) data[i] = Math.random() * 2 - 1;
  const src = ctx.createBufferSource();
  src.buffer = buffer;
  return src;
}
