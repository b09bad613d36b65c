// Replay page: steps through a finished game. The server replayed the record with the rules engine and
// embedded every step (token progress, dice, a sentence) as JSON; this draws the tokens of a step on the
// board and wires the buttons, the slider, the move list, the arrow keys and autoplay. The address's
// #step-N opens the replay at that step, and follows it, so a step can be linked to.
(function () {
  "use strict";
  const SVG = "http://www.w3.org/2000/svg";
  const FAN = 9; // tokens sharing a square are fanned out, as on the game board

  function start() {
    const root = document.querySelector("[data-replay]");
    const dataNode = document.getElementById("replay-data");
    if (!root || !dataNode) return;
    const data = JSON.parse(dataNode.textContent);
    const steps = data.steps;
    const last = steps.length - 1;
    const svg = root.querySelector("svg.board");
    const layer = document.createElementNS(SVG, "g");
    layer.setAttribute("class", "replay-tokens");
    svg.append(layer);

    const tokens = {};
    for (const [colour, progresses] of Object.entries(steps[0].tokens)) {
      tokens[colour] = progresses.map((_, index) => {
        const g = document.createElementNS(SVG, "g");
        g.setAttribute("class", `token token-${colour}`);
        g.dataset.token = `${colour}-${index}`;
        const circle = document.createElementNS(SVG, "circle");
        circle.setAttribute("r", "14");
        circle.setAttribute("fill", `var(--${colour})`);
        circle.setAttribute("stroke", "#fff");
        circle.setAttribute("stroke-width", "3");
        const label = document.createElementNS(SVG, "text");
        label.setAttribute("y", "5");
        label.setAttribute("text-anchor", "middle");
        label.setAttribute("class", "token-label");
        label.textContent = String(index + 1);
        const title = document.createElementNS(SVG, "title");
        g.append(circle, label, title);
        layer.append(g);
        return g;
      });
    }

    const slider = root.querySelector("[data-slider]");
    const number = root.querySelector("[data-step-number]");
    const text = root.querySelector("[data-text]");
    const diceEl = root.querySelector("[data-dice]");
    const log = root.querySelector("[data-log]");
    const buttons = Object.fromEntries([...root.querySelectorAll("[data-go]")].map((b) => [b.dataset.go, b]));
    const playButton = root.querySelector("[data-autoplay]");
    const speed = root.querySelector("[data-speed]");
    const stepLink = root.querySelector("[data-step-link]");
    let current = 0;
    let timer = null;

    function where(progress) {
      if (progress < 0) return "in the yard";
      if (progress >= 56) return "home";
      if (progress > 50) return `in the home column (${progress - 50} of 5)`;
      return `on square ${progress} of its way round`;
    }

    function draw(step) {
      const groups = new Map();
      for (const [colour, progresses] of Object.entries(step.tokens)) {
        const geo = data.geometry[colour];
        progresses.forEach((progress, index) => {
          const [x, y] = progress < 0 ? geo.yard[index] : geo.path[Math.min(progress, 56)];
          const key = `${x},${y}`;
          if (!groups.has(key)) groups.set(key, []);
          groups.get(key).push({ colour, index, x, y, progress });
        });
      }
      for (const group of groups.values()) {
        group.forEach((t, n) => {
          const shift = group.length > 1 ? (n - (group.length - 1) / 2) * FAN : 0;
          const g = tokens[t.colour][t.index];
          g.setAttribute("transform", `translate(${t.x + shift} ${t.y - shift / 2})`);
          g.dataset.progress = String(t.progress);
          g.querySelector("title").textContent = `${t.colour} ${t.index + 1} ${where(t.progress)}`;
        });
      }
    }

    function show(n) {
      current = Math.max(0, Math.min(last, n));
      const step = steps[current];
      draw(step);
      slider.value = String(current);
      number.textContent = String(current);
      text.textContent = step.text;
      diceEl.textContent = step.dice.length ? `Dice in hand: ${step.dice.join(", ")}` : "";
      buttons.first.disabled = buttons.prev.disabled = current === 0;
      buttons.next.disabled = buttons.last.disabled = current === last;
      const previous = log.querySelector("[aria-current]");
      if (previous) previous.removeAttribute("aria-current");
      const item = log.querySelector(`li[data-n="${current}"]`);
      if (item) {
        item.setAttribute("aria-current", "step");
        const top = item.offsetTop; // the list is position: relative, so this is within it
        if (top < log.scrollTop || top > log.scrollTop + log.clientHeight - item.offsetHeight) {
          log.scrollTop = top - log.clientHeight / 2;
        }
      }
      root.dataset.step = String(current);
      if (stepLink) stepLink.href = `#step-${current}`;
      if (current === last) stop();
    }

    // The address follows the step without adding a history entry per step.
    function remember() {
      history.replaceState(null, "", `#step-${current}`);
    }

    function stepFromAddress() {
      const found = /^#step-(\d+)$/.exec(location.hash);
      return found ? Number(found[1]) : 0;
    }

    function stop() {
      if (timer === null) return;
      clearInterval(timer);
      timer = null;
      playButton.textContent = "Play";
      playButton.setAttribute("aria-pressed", "false");
      remember();
    }

    function play() {
      if (current === last) show(0);
      playButton.textContent = "Pause";
      playButton.setAttribute("aria-pressed", "true");
      timer = setInterval(() => show(current + 1), Number(speed.value));
    }

    function toggle() {
      if (timer === null) play();
      else stop();
    }

    const moves = { first: () => 0, prev: () => current - 1, next: () => current + 1, last: () => last };
    for (const [name, button] of Object.entries(buttons)) {
      button.addEventListener("click", () => {
        stop();
        show(moves[name]());
        remember();
      });
    }
    playButton.addEventListener("click", toggle);
    speed.addEventListener("change", () => {
      if (timer !== null) {
        stop();
        play();
      }
    });
    slider.addEventListener("input", () => {
      stop();
      show(Number(slider.value));
      remember();
    });
    log.addEventListener("click", (event) => {
      const jump = event.target.closest("[data-jump]");
      if (!jump) return;
      stop();
      show(Number(jump.dataset.jump));
      remember();
    });
    window.addEventListener("hashchange", () => show(stepFromAddress()));
    document.addEventListener("keydown", (event) => {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      const tag = event.target && event.target.tagName;
      if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
      if (event.key === " " && (tag === "BUTTON" || tag === "A")) return; // Space presses the button
      if (event.key === " ") {
        event.preventDefault();
        toggle();
        return;
      }
      const keys = { ArrowLeft: moves.prev, ArrowRight: moves.next, Home: moves.first, End: moves.last };
      if (!keys[event.key]) return;
      event.preventDefault();
      stop();
      show(keys[event.key]());
      remember();
    });
    show(stepFromAddress());
    root.dataset.ready = "1";
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
