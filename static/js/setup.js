// Setup forms (home page cards and /games/new/<mode>/): show only the options the chosen rules have,
// and the seats the player count needs, coloured as they will play.
(() => {
  "use strict";
  const COLOURS = {
    classic: { 2: ["red", "yellow"], 3: ["red", "green", "yellow"], 4: ["red", "green", "yellow", "blue"] },
    duel: { 2: ["red", "blue"] },
    twodice: { 2: ["red", "yellow"] },
  };
  COLOURS.places = COLOURS.classic;
  function update(form) {
    const ruleset = form.querySelector('input[name="ruleset"]:checked')?.value || "classic";
    const two = ruleset === "duel" || ruleset === "twodice";
    let count = Number(form.querySelector('input[name="players"]:checked')?.value || 4);
    if (two) count = 2;
    form.querySelectorAll("[data-show-for]").forEach((el) => {
      const show = el.dataset.showFor.split(" ").includes(ruleset);
      el.hidden = !show;
      if (!el.classList.contains("players-count")) {
        el.querySelectorAll("input, select").forEach((i) => (i.disabled = !show));
      }
    });
    const colours = COLOURS[ruleset][count] || COLOURS.classic[count];
    form.querySelectorAll(".seat-line").forEach((line) => {
      const n = Number(line.dataset.seat);
      line.hidden = n > count;
      line.querySelectorAll("input, select").forEach((i) => (i.disabled = n > count));
      const sw = line.querySelector(".swatch");
      if (sw) sw.className = "swatch swatch-" + colours[n - 1] + (ruleset === "twodice" ? " swatch-twin" : "");
      const kind = line.querySelector(".kind-select");
      if (kind) {
        const bot = kind.value === "computer";
        line.querySelector(".name-input").hidden = bot;
        line.querySelector(".level-select").hidden = !bot;
      }
    });
    const link = form.querySelector(".rules-link");
    if (link) link.href = `/rules/${ruleset}/`;
  }
  document.querySelectorAll(".setup-form").forEach((form) => {
    form.addEventListener("change", () => update(form));
    update(form);
  });
})();
