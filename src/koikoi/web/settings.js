// Player settings kept in localStorage: language, animation pace, display settings
// (contrast, grain, colour temperature) and reduced motion.

const KEY = "koikoi.settings";

export const PACES = [0, 0.5, 1, 1.6]; // instant, fast, normal, slow (a factor on every delay)

const DEFAULTS = {
  lang: null, // null: the server's best match for the browser
  pace: 1,
  contrast: 50, // 0..100, 50 = as designed
  grain: 30, // 0..100
  temperature: 50, // 0 = cool, 50 = neutral, 100 = warm
  reducedMotion: null, // null: follow the system's prefers-reduced-motion
};

function load() {
  try {
    const stored = JSON.parse(localStorage.getItem(KEY) || "{}");
    return { ...DEFAULTS, ...(stored && typeof stored === "object" ? stored : {}) };
  } catch {
    return { ...DEFAULTS };
  }
}

export const settings = load();

const params = new URLSearchParams(location.search);
/** `?pace=0` (tests, demos) wins over the stored pace for this page, until a pace is chosen. */
let urlPace = params.has("pace") ? Number(params.get("pace")) : null;
export const urlLang = params.get("lang");

export function save(changes) {
  if ("pace" in changes) urlPace = null;
  Object.assign(settings, changes);
  try {
    localStorage.setItem(KEY, JSON.stringify(settings));
  } catch {
    // private mode: settings last for this page only
  }
  apply();
}

export function resetDisplay() {
  save({ contrast: DEFAULTS.contrast, grain: DEFAULTS.grain, temperature: DEFAULTS.temperature, reducedMotion: null });
}

const systemReduced = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;

export function reducedMotion() {
  if (settings.reducedMotion !== null) return settings.reducedMotion;
  return Boolean(systemReduced && systemReduced.matches);
}

/** The pace in force: a factor on every animation delay; 0 = instant. */
export function pace() {
  if (urlPace !== null && Number.isFinite(urlPace) && urlPace >= 0) return urlPace;
  const value = Number(settings.pace);
  return Number.isFinite(value) && value >= 0 ? value : 1;
}

let delayImpl = (ms) => {
  const factor = pace();
  if (factor === 0 || ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    setTimeout(resolve, ms * factor);
  });
};

/** The one place the game waits: resolves at once when the pace is 0. */
export function delay(ms) {
  return delayImpl(ms);
}

/** Tests may replace the waiting (e.g. with `() => Promise.resolve()`). */
export function setDelay(fn) {
  delayImpl = fn;
}

export function apply() {
  const root = document.documentElement;
  const contrast = 0.7 + (Number(settings.contrast) / 100) * 0.6; // 0.7 .. 1.3
  const grain = (Number(settings.grain) / 100) * 0.45;
  const warmth = (Number(settings.temperature) - 50) / 50; // -1 .. 1
  root.style.setProperty("--fx-contrast", contrast.toFixed(3));
  root.style.setProperty("--fx-grain", grain.toFixed(3));
  const tint = warmth >= 0 ? `rgba(255, 146, 48, ${(warmth * 0.34).toFixed(3)})` : `rgba(70, 150, 255, ${(-warmth * 0.34).toFixed(3)})`;
  root.style.setProperty("--fx-tint", tint);
  root.dataset.motion = reducedMotion() ? "reduced" : "full";
  root.dataset.pace = pace() === 0 ? "0" : "1";
}

if (systemReduced && systemReduced.addEventListener) systemReduced.addEventListener("change", apply);
