// The settings dialog: animation speed and the display settings (contrast, grain,
// colour temperature, reduced motion), applied at once and remembered.

import { h, icon, openModal } from "./dom.js";
import { num, t } from "./i18n.js";
import { PACES, reducedMotion, resetDisplay, save, settings } from "./settings.js";

function slider(key, label, { left, right }) {
  const id = `setting-${key}`;
  const output = h("output", { for: id, class: "slider-value" }, num(Number(settings[key])));
  const input = h("input", {
    type: "range",
    id,
    min: "0",
    max: "100",
    step: "1",
    value: String(settings[key]),
    "data-testid": `setting-${key}`,
    "aria-valuetext": null,
  });
  input.addEventListener("input", () => {
    save({ [key]: Number(input.value) });
    output.textContent = num(Number(input.value));
  });
  return h(
    "div",
    { class: "setting" },
    h("label", { for: id, class: "setting-label" }, label, output),
    input,
    h("div", { class: "slider-ends", "aria-hidden": "true" }, h("span", {}, left), h("span", {}, right)),
  );
}

export function openSettings({ onChange } = {}) {
  const paceIndex = Math.max(0, PACES.indexOf(Number(settings.pace)));
  const paceGroup = h(
    "fieldset",
    { class: "setting segmented", "data-testid": "setting-pace" },
    h("legend", { class: "setting-label" }, t("settings.pace")),
    PACES.map((value, index) => {
      const id = `pace-${index}`;
      const input = h("input", { type: "radio", name: "pace", id, value: String(value), checked: index === paceIndex });
      input.addEventListener("change", () => save({ pace: value }));
      return h("span", { class: "seg" }, input, h("label", { for: id }, t(`settings.pace.${index}`)));
    }),
  );
  const motion = h("input", { type: "checkbox", id: "setting-motion", "data-testid": "setting-motion", checked: reducedMotion() });
  motion.addEventListener("change", () => save({ reducedMotion: motion.checked }));
  const body = h(
    "div",
    { class: "settings-body" },
    paceGroup,
    slider("contrast", t("settings.contrast"), { left: t("settings.contrast.low"), right: t("settings.contrast.high") }),
    slider("grain", t("settings.grain"), { left: t("settings.grain.none"), right: t("settings.grain.strong") }),
    slider("temperature", t("settings.temperature"), { left: t("settings.temperature.cool"), right: t("settings.temperature.warm") }),
    h("div", { class: "setting setting-check" }, motion, h("label", { for: "setting-motion" }, t("settings.reduced_motion"))),
    h("p", { class: "setting-note" }, t("settings.note")),
  );
  const reset = h("button", { type: "button", class: "btn btn-ghost" }, t("settings.reset"));
  const done = h("button", { type: "button", class: "btn btn-primary", "data-testid": "settings-close" }, t("ui.done"));
  const close = h("button", { type: "button", class: "icon-btn dialog-close", "aria-label": t("ui.close"), title: t("ui.close") }, icon("close"));
  const panel = h(
    "div",
    { class: "dialog settings-dialog", "data-testid": "settings-dialog", "aria-labelledby": "settings-title" },
    h("div", { class: "dialog-head" }, h("h2", { id: "settings-title" }, t("settings.title")), close),
    body,
    h("div", { class: "sheet-actions two" }, reset, done),
  );
  const modal = openModal(panel, { onClose: onChange });
  close.addEventListener("click", () => modal.close());
  done.addEventListener("click", () => modal.close());
  reset.addEventListener("click", () => {
    resetDisplay();
    modal.close();
    openSettings({ onChange });
  });
  return modal;
}
