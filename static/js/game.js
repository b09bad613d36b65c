// The game page: picks and sends moves (click, drag, keys, token buttons), keeps the board on the newest
// version (WebSocket pushes and POST answers may cross), animates tokens and dice, and announces turns.
// Every new board, or the regions of it a push carries, is morphed into the one shown (idiomorph), never
// swapped whole: the focused control, a half-typed field, an open panel and the scroll positions stay
// where the player left them.
(() => {
  "use strict";
  const page = document.querySelector(".game-page");
  if (!page) return;
  const reduced = window.matchMedia("(prefers-reduced-motion: reduce)");
  const PREFS = { automove: true, path: false, helpers: true, sound: false };
  const baseTitle = document.title;
  let selectedDie = null;
  let beforePositions = null;
  let lastVersion = -1;
  let lastMyTurn = false;
  let autoTimer = null;
  let sending = false;
  let noticed = -1;

  // --- morphing the live board -------------------------------------------------------------------------
  // The server sends a pushed board with hx-swap-oob="true" (an outerHTML swap); this extension, named in
  // the socket's hx-ext, turns that into idiomorph's "morph" before htmx swaps it. The morph extension
  // itself is named on #game-live alone: where it applies it takes every out-of-band swap for an inline
  // one, which would nest the chat's appended messages (beforeend:#chat-log) in a second list.
  // Each form that answers into #game-live names "morph" itself too: a push can take the form out of
  // the page before its answer arrives (Start, Resign), a detached form inherits no extension, and htmx
  // then swapped the answer in with innerHTML, a second board inside the first
  // (tests/browser/test_crossing_answers.py).
  htmx.defineExtension("live-morph", {
    transformResponse: (text) => text.replace('id="game-live" hx-swap-oob="true"', 'id="game-live" hx-swap-oob="morph"'),
  });
  if (window.Idiomorph) {
    // <details> panels (moves, fair dice) stay as the player opened or closed them.
    Idiomorph.defaults.callbacks.beforeAttributeUpdated = (name, element) =>
      !(name === "open" && element.tagName === "DETAILS");
  }
  // The control focused before a board update, by id or test id: if the update took it away (a token
  // button after its move), focus goes to the same control if it came back, else to Roll, never <body>.
  let focusBefore = null;
  const noteFocus = () => {
    const el = document.activeElement;
    // What the player is typing stays. Only for a field: idiomorph then leaves the focused element's
    // contents alone too, and a focused button's label must follow the board ("Waiting for the others").
    if (window.Idiomorph) Idiomorph.defaults.ignoreActiveValue = Boolean(el?.matches?.("input, textarea, select"));
    focusBefore = el && el !== document.body && live()?.contains(el) ? { id: el.id, testid: el.dataset?.testid } : null;
  };
  const restoreFocus = () => {
    const before = focusBefore;
    focusBefore = null;
    const root = live();
    if (!before || !root) return;
    const now = document.activeElement;
    if (now && now !== document.body && now.isConnected) return; // kept (the morph keeps it)
    const again =
      (before.id && document.getElementById(before.id)) ||
      (before.testid && root.querySelector(`[data-testid="${before.testid}"]`)) ||
      root.querySelector(".token-button.movable") ||
      document.getElementById("roll-button");
    again?.focus({ preventScroll: true });
  };

  // A control marked aria-disabled (Roll when it can't act) keeps its focus but does nothing.
  document.addEventListener(
    "click",
    (event) => {
      if (event.target.closest?.('#game-live [aria-disabled="true"]')) {
        event.preventDefault();
        event.stopImmediatePropagation();
      }
    },
    true,
  );

  // --- preferences (per player, per browser) ---------------------------------------------------------
  const pref = (name) => {
    const v = localStorage.getItem("ludopat:" + name);
    return v === null ? PREFS[name] : v === "1";
  };
  const applyPrefs = () => {
    page.classList.toggle("no-helpers", !pref("helpers"));
    page.classList.toggle("show-path", pref("path"));
  };
  document.querySelectorAll("[data-pref]").forEach((box) => {
    box.checked = pref(box.dataset.pref);
    box.addEventListener("change", () => {
      localStorage.setItem("ludopat:" + box.dataset.pref, box.checked ? "1" : "0");
      applyPrefs();
    });
  });
  applyPrefs();
  const settingsToggle = document.getElementById("settings-toggle");
  const settings = document.getElementById("settings");
  settingsToggle?.addEventListener("click", () => {
    settings.hidden = !settings.hidden;
    settingsToggle.setAttribute("aria-expanded", String(!settings.hidden));
  });

  // --- helpers ----------------------------------------------------------------------------------------
  const live = () => document.getElementById("game-live");
  const version = () => Number(live()?.dataset.version ?? -1);
  // `reload`: the page is out of date (the session changed in another tab): the toast stays, with a
  // button that reloads the page.
  const toast = (text, kind = "error", reload = false) => {
    const el = document.getElementById("game-toast");
    if (!el || !text) return;
    el.textContent = text;
    el.className = "toast toast-" + kind;
    el.hidden = false;
    clearTimeout(el._t);
    if (reload) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "button button-small";
      button.dataset.testid = "toast-reload";
      button.textContent = "Reload";
      button.addEventListener("click", () => location.reload());
      el.append(" ", button);
      return;
    }
    el._t = setTimeout(() => (el.hidden = true), 4500);
  };
  // What a refused request says, as a sentence: the server's own when it sent plain text (every
  // refusal of ours does), never the markup of an error page.
  const refusal = (xhr) => {
    const type = xhr.getResponseHeader("Content-Type") || "";
    const text = (xhr.responseText || "").trim();
    if (xhr.status === 429) return "Too many actions at once: wait a moment.";
    if (type.startsWith("text/plain") && text && !text.includes("<")) return text.slice(0, 300);
    if (xhr.status === 403) return "That was refused: reload the page and try again.";
    if (xhr.status === 404) return "This game is not here any more: reload the page.";
    if (xhr.status >= 500) return "Something went wrong on the server: try again in a moment.";
    return `That was refused (HTTP ${xhr.status}): reload the page and try again.`;
  };
  const announce = (text) => {
    const el = document.getElementById("announcer");
    if (el) {
      el.textContent = "";
      setTimeout(() => (el.textContent = text), 30);
    }
  };

  function send(url, values) {
    const root = live();
    if (!root || sending) return;
    sending = true;
    clearTimeout(autoTimer);
    htmx
      .ajax("POST", url, { source: root, target: "#game-live", swap: "morph", values })
      .finally(() => (sending = false));
  }

  function sendMove(token, die, pair) {
    const root = live();
    const [colour, index] = token.split(":");
    const values = { version: root.dataset.version, colour, index };
    if (die !== undefined && die !== null && die !== "") values.die = die;
    if (pair) values.pair = "true";
    hideChoosers();
    send(root.dataset.moveUrl, values);
  }

  function optionsFor(token) {
    const button = document.querySelector(`.token-button[data-token="${token}"]`);
    if (!button) return [];
    try {
      return JSON.parse(button.dataset.options || "[]");
    } catch {
      return [];
    }
  }

  function hideChoosers() {
    document.querySelectorAll(".chooser").forEach((c) => (c.hidden = true));
    document.querySelectorAll(".token.selected").forEach((t) => t.classList.remove("selected"));
    document.querySelectorAll(".target.shown").forEach((t) => t.classList.remove("shown"));
  }

  function showTargets(token) {
    document.querySelectorAll(".target").forEach((t) => {
      t.classList.toggle("shown", t.dataset.token === token);
    });
  }

  // Pick a token: one way to move it goes at once; the chosen die narrows the choice; else ask.
  function pick(token) {
    let options = optionsFor(token);
    if (!options.length) return;
    if (selectedDie !== null) {
      const withDie = options.filter((o) => String(o.die) === String(selectedDie));
      if (withDie.length) options = withDie;
    }
    if (options.length === 1) {
      sendMove(token, options[0].die, options[0].pair);
      return;
    }
    hideChoosers();
    const chooser = document.querySelector(`.chooser[data-for="${token}"]`);
    document.getElementById("tok-" + token.replace(":", "-"))?.classList.add("selected");
    showTargets(token);
    if (chooser) {
      chooser.querySelectorAll(".choice").forEach((b) => {
        b.hidden = !options.some((o) => String(o.die) === b.dataset.die && String(o.pair ? 1 : 0) === b.dataset.pair);
      });
      chooser.hidden = false;
      chooser.querySelector(".choice:not([hidden])")?.focus();
    }
  }

  function selectDie(button) {
    const die = button.dataset.die;
    const same = selectedDie === die && button.getAttribute("aria-pressed") === "true";
    document.querySelectorAll(".die.choosable").forEach((d) => d.setAttribute("aria-pressed", "false"));
    selectedDie = same ? null : die;
    if (!same) button.setAttribute("aria-pressed", "true");
    highlightForDie();
  }

  function highlightForDie() {
    document.querySelectorAll(".token-button.movable").forEach((b) => {
      const ok = selectedDie === null || optionsFor(b.dataset.token).some((o) => String(o.die) === String(selectedDie));
      b.classList.toggle("dim", !ok);
      document.getElementById("tok-" + b.dataset.token.replace(":", "-"))?.classList.toggle("dim", !ok);
    });
  }

  // --- clicks -----------------------------------------------------------------------------------------
  page.addEventListener("click", (event) => {
    const choice = event.target.closest(".choice");
    if (choice) {
      const pair = choice.dataset.pair === "1";
      sendMove(choice.dataset.token, choice.dataset.die, pair);
      return;
    }
    const tokenButton = event.target.closest(".token-button");
    if (tokenButton && !tokenButton.disabled) {
      pick(tokenButton.dataset.token);
      return;
    }
    const die = event.target.closest(".die.choosable");
    if (die && live()?.dataset.myTurn === "1") {
      selectDie(die);
      return;
    }
    const copy = event.target.closest("[data-copy]");
    if (copy) {
      const input = document.querySelector(copy.dataset.copy);
      navigator.clipboard?.writeText(input.value).then(
        () => toast("Link copied. Send it to your friends!", "ok"),
        () => { input.select(); toast("Press Ctrl+C to copy the link.", "ok"); },
      );
      return;
    }
    const share = event.target.closest("[data-share]");
    if (share && navigator.share) {
      navigator.share({ title: "Play Ludo with me", text: "Join my Ludo game on Ludopat", url: share.dataset.share }).catch(() => {});
    }
  });
  document.querySelectorAll("[data-share]").forEach((b) => (b.hidden = !navigator.share));

  // --- dragging a token on the board (a click without movement is a pick) ----------------------------
  let drag = null;
  const svgPoint = (svg, event) => {
    const pt = svg.createSVGPoint();
    pt.x = event.clientX;
    pt.y = event.clientY;
    return pt.matrixTransform(svg.getScreenCTM().inverse());
  };
  page.addEventListener("pointerdown", (event) => {
    const tok = event.target.closest(".token.movable");
    if (!tok || event.button > 0) return;
    const svg = tok.ownerSVGElement;
    const start = svgPoint(svg, event);
    const m = /translate\(([-\d.]+)[ ,]+([-\d.]+)\)/.exec(tok.getAttribute("transform"));
    drag = { tok, svg, start, x0: Number(m[1]), y0: Number(m[2]), moved: false, id: event.pointerId };
    tok.setPointerCapture?.(event.pointerId);
    showTargets(tok.dataset.token);
    event.preventDefault();
  });
  page.addEventListener("pointermove", (event) => {
    if (!drag || event.pointerId !== drag.id) return;
    const p = svgPoint(drag.svg, event);
    const dx = p.x - drag.start.x;
    const dy = p.y - drag.start.y;
    if (!drag.moved && Math.hypot(dx, dy) < 6) return;
    drag.moved = true;
    drag.tok.classList.add("dragging");
    drag.tok.setAttribute("transform", `translate(${drag.x0 + dx} ${drag.y0 + dy})`);
    const near = nearestTarget(drag.tok.dataset.token, p);
    document.querySelectorAll(".target").forEach((t) => t.classList.toggle("hot", t === near));
  });
  const endDrag = (event) => {
    if (!drag || event.pointerId !== drag.id) return;
    const { tok, moved, x0, y0, svg } = drag;
    drag = null;
    tok.classList.remove("dragging");
    if (!moved) {
      pick(tok.dataset.token);
      return;
    }
    const near = event.type === "pointerup" ? nearestTarget(tok.dataset.token, svgPoint(svg, event)) : null;
    if (near) {
      sendMove(near.dataset.token, near.dataset.die, near.dataset.pair === "1");
    } else {
      tok.setAttribute("transform", `translate(${x0} ${y0})`);
      hideChoosers();
    }
  };
  page.addEventListener("pointerup", endDrag);
  page.addEventListener("pointercancel", endDrag);
  function nearestTarget(token, p) {
    let best = null;
    let bestD = 30;
    document.querySelectorAll(`.target[data-token="${token}"]`).forEach((t) => {
      if (selectedDie !== null && t.dataset.die !== String(selectedDie)) return;
      const d = Math.hypot(Number(t.dataset.x) - p.x, Number(t.dataset.y) - p.y);
      if (d < bestD) { best = t; bestD = d; }
    });
    return best;
  }

  // Hovering or focusing a token shows where it would go (with "show the move path", its path too).
  page.addEventListener("pointerover", (event) => {
    const tok = event.target.closest(".token.movable, .token-button.movable");
    if (tok && !drag) showTargets(tok.dataset.token);
  });
  page.addEventListener("focusin", (event) => {
    const tok = event.target.closest(".token-button.movable");
    if (tok) showTargets(tok.dataset.token);
  });

  // --- keys: 1-4 pick a token (again: the next one with that number), R rolls, Esc cancels -----------
  let keyCycle = { key: null, at: 0 };
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target.closest("input, select, textarea")) return;
    const root = live();
    if (!root || root.dataset.myTurn !== "1") return;
    if (event.key === "Escape") { hideChoosers(); return; }
    if (root.dataset.paused === "1") return; // nothing moves during a pause
    if (/^[1-4]$/.test(event.key)) {
      const buttons = [...document.querySelectorAll(`.token-button.movable[data-key="${event.key}"]`)];
      if (!buttons.length) return;
      keyCycle = keyCycle.key === event.key ? { key: event.key, at: keyCycle.at + 1 } : { key: event.key, at: 0 };
      const button = buttons[keyCycle.at % buttons.length];
      button.focus();
      if (buttons.length === 1) pick(button.dataset.token);
      event.preventDefault();
    } else if ((event.key === "r" || event.key === "R") && root.dataset.canRoll === "1") {
      document.getElementById("roll-button")?.click();
      event.preventDefault();
    }
  });

  // --- keeping the newest board -----------------------------------------------------------------------
  const incomingVersion = (el) => Number(el?.dataset?.version ?? -1);
  function rememberPositions() {
    beforePositions = {};
    document.querySelectorAll("#game-board .token").forEach((t) => {
      beforePositions[t.id] = { transform: t.getAttribute("transform"), progress: Number(t.dataset.progress) };
    });
  }
  // The whole board, ground and all: a resync over the socket when it is open; otherwise fetched from
  // the board's own address, so a page whose socket is down (it queues what it is sent until it is
  // back) does not show an old board until then.
  function wholeBoard() {
    if (socketOpen && liveSocket) {
      liveSocket.send(JSON.stringify({ resync: -1 }));
      return;
    }
    const root = live();
    if (root?.dataset.liveUrl) htmx.ajax("GET", root.dataset.liveUrl, { source: root, target: root, swap: "morph" });
  }
  // A push of the regions that changed (games/live/fragments.py: delta): the opening tag of #game-live,
  // whose data-from names the version the page must show for the regions to apply and whose attributes
  // (the new version, whose turn it is) replace the page's, then each region, an out-of-band morph.
  // Checked here, before any region is swapped: older than the page's board, it is dropped; moving from
  // a version the page doesn't show (it missed a push), or without the ground the page shows, the page
  // asks for the whole board instead. Else the focus and the tokens' places are noted for every region
  // swapped, as for a whole board, and afterUpdate (htmx:wsAfterMessage) restores and animates them.
  const DELTA = '<div id="game-live" hx-swap-oob="none" data-from="';
  const SKIPPED = new Set(["id", "hx-swap-oob", "data-from"]);
  document.body.addEventListener("htmx:wsBeforeMessage", (event) => {
    const text = event.detail.message;
    if (typeof text !== "string" || !text.startsWith(DELTA)) return;
    const root = live();
    const holder = document.createElement("template");
    holder.innerHTML = text.slice(0, text.indexOf(">") + 1) + "</div>";
    const head = holder.content.firstElementChild;
    const from = Number(head.dataset.from);
    const to = incomingVersion(head);
    const shown = version();
    if (!root || from !== shown) {
      event.preventDefault();
      if (to > shown) wholeBoard(); // a push was missed: the whole board, never a partial one
      return;
    }
    const kept = /data-ground="([0-9a-f]+)" hx-preserve/.exec(text);
    if (kept && kept[1] !== document.getElementById("board-ground")?.dataset.ground) {
      event.preventDefault();
      wholeBoard();
      return;
    }
    noteFocus();
    rememberPositions();
    for (const name of root.getAttributeNames()) {
      if (!SKIPPED.has(name) && !head.hasAttribute(name)) root.removeAttribute(name);
    }
    for (const { name, value } of head.attributes) {
      if (!SKIPPED.has(name) && root.getAttribute(name) !== value) root.setAttribute(name, value);
    }
  });
  document.body.addEventListener("htmx:oobBeforeSwap", (event) => {
    const incoming = event.detail.fragment?.firstElementChild;
    if (!incoming || incoming.id !== "game-live" || incoming.hasAttribute("data-from")) return;
    if (incomingVersion(incoming) < version()) {
      event.detail.shouldSwap = false; // an older board than the one shown: ignore it
      return;
    }
    // A push may leave out the board's ground (the yards and squares, more than half of it) for the
    // page to keep its own (hx-preserve): only if the page shows that very ground; otherwise it asks
    // for the whole board, which a resync always is (games/web/consumers.py).
    const kept = incoming.querySelector("#board-ground[hx-preserve]");
    if (kept && kept.dataset.ground !== document.getElementById("board-ground")?.dataset.ground) {
      event.detail.shouldSwap = false;
      wholeBoard();
      return;
    }
    noteFocus();
    rememberPositions();
  });
  document.body.addEventListener("htmx:beforeSwap", (event) => {
    const xhr = event.detail.xhr;
    if (xhr.status === 409 && xhr.responseText.includes('id="game-live"')) {
      event.detail.shouldSwap = true; // refused, but here is the current board: resync
      event.detail.isError = false;
    } else if (xhr.status >= 400) {
      event.detail.shouldSwap = false;
      toast(refusal(xhr), "error", xhr.getResponseHeader("X-Ludopat-Reload") === "1");
      return;
    }
    const m = /data-version="(\d+)"/.exec(xhr.responseText || "");
    if (m && Number(m[1]) < version() && event.detail.target?.id === "game-live") {
      event.detail.shouldSwap = false;
      return;
    }
    // An answer without the ground the page no longer shows (a push changed it meanwhile): the whole
    // board instead.
    const kept = /data-ground="([0-9a-f]+)" hx-preserve/.exec(xhr.responseText || "");
    if (kept && kept[1] !== document.getElementById("board-ground")?.dataset.ground) {
      event.detail.shouldSwap = false;
      wholeBoard();
      return;
    }
    noteFocus();
    rememberPositions();
  });
  document.body.addEventListener("htmx:oobAfterSwap", (event) => {
    if (event.detail.target?.id === "game-toast" || event.target?.id === "game-toast") {
      const el = document.getElementById("game-toast");
      if (el && el.textContent.trim()) { el.hidden = false; clearTimeout(el._t); el._t = setTimeout(() => (el.hidden = true), 4500); }
    }
  });
  document.body.addEventListener("htmx:afterSettle", afterUpdate);
  document.body.addEventListener("htmx:wsAfterMessage", afterUpdate);
  document.body.addEventListener("htmx:sendError", () => toast("No connection: check your network."));

  function afterUpdate() {
    const root = live();
    if (!root) return;
    // The invitation panel sits outside the live fragment: once the room has started it has done its job.
    const invite = document.querySelector("[data-testid=invite]");
    if (invite) invite.hidden = root.dataset.status !== "open";
    restoreFocus();
    const v = Number(root.dataset.version);
    // The board element lives on across morphs: a notice is toasted once per version it comes with.
    const notice = root.querySelector(".notice");
    if (notice && noticed !== v) {
      noticed = v;
      toast(notice.textContent);
    }
    if (v === lastVersion && !beforePositions) return;
    const changed = v !== lastVersion;
    lastVersion = v;
    selectedDie = null;
    animateTokens();
    if (changed) {
      const msg = document.getElementById("game-message")?.textContent.trim();
      if (msg) announce(msg);
      if (!reduced.matches && root.querySelector(".die:not(.blank):not(.spent)")) {
        root.querySelectorAll(".dice .die").forEach((d) => d.classList.add("rolling"));
        setTimeout(() => root.querySelectorAll(".dice .die").forEach((d) => d.classList.remove("rolling")), 550);
      }
    }
    const myTurn = root.dataset.myTurn === "1";
    showTurnInTab(myTurn);
    if (myTurn && !lastMyTurn) {
      if (pref("sound")) beep();
      if (changed) announce("Your turn. " + (document.getElementById("game-message")?.textContent.trim() || ""));
    }
    lastMyTurn = myTurn;
    highlightForDie();
    scheduleAutoMove(root);
    revealHandovers();
  }

  // The tab's title and icon say it is your turn, so a player in another tab sees it there.
  const icon = document.querySelector('link[rel="icon"]');
  const baseIcon = icon?.getAttribute("href");
  const turnIcon = page.dataset.turnIcon;
  function showTurnInTab(myTurn) {
    document.title = myTurn ? "● Your turn · " + baseTitle : baseTitle;
    if (icon && turnIcon) icon.setAttribute("href", myTurn ? turnIcon : baseIcon);
  }

  function animateTokens() {
    const before = beforePositions;
    beforePositions = null;
    if (!before || reduced.matches) return;
    const board = document.getElementById("game-board");
    let routes = {};
    try {
      routes = JSON.parse(board?.dataset.routes || "{}");
    } catch (_) {
      routes = {};
    }
    const xy = (transform) => {
      const m = /translate\(([-\d.]+)[ ,]+([-\d.]+)\)/.exec(transform || "");
      return m ? [Number(m[1]), Number(m[2])] : null;
    };
    document.querySelectorAll("#game-board .token").forEach((t) => {
      const old = before[t.id];
      const now = t.getAttribute("transform");
      if (!old || old.transform === now) return;
      const a = xy(old.transform);
      const b = xy(now);
      const inner = t.querySelector(".tok-in");
      if (!a || !b || !inner) return;
      // A move forward walks square by square along the token's own route; a capture, a yard exit or
      // a three-sixes undo slides straight.
      const route = routes[t.dataset.token.split(":")[0]];
      const from = old.progress;
      const to = Number(t.dataset.progress);
      const points = [a];
      if (route && from >= 0 && to > from && to - from <= 24) {
        for (let p = from + 1; p < to; p++) points.push(route[p]);
      }
      points.push(b);
      const frames = points.map(([x, y]) => ({ transform: `translate(${x - b[0]}px, ${y - b[1]}px)` }));
      const far = Math.hypot(a[0] - b[0], a[1] - b[1]);
      const duration = points.length > 2 ? Math.min(1400, 110 * (points.length - 1)) : Math.min(650, 220 + far * 1.1);
      inner.animate(frames, { duration, easing: points.length > 2 ? "linear" : "cubic-bezier(.2,.8,.25,1)" });
    });
  }

  function scheduleAutoMove(root) {
    clearTimeout(autoTimer);
    if (!pref("automove") || root.dataset.myTurn !== "1" || !root.dataset.singleMove) return;
    const v = root.dataset.version;
    autoTimer = setTimeout(() => {
      const now = live();
      if (!now || now.dataset.version !== v || !now.dataset.singleMove) return;
      const m = JSON.parse(now.dataset.singleMove);
      sendMove(`${m.colour}:${m.index}`, m.die, m.pair);
    }, reduced.matches ? 250 : 650);
  }

  function revealHandovers() {
    document.querySelectorAll("form.handover").forEach((f) => {
      const since = Date.parse(f.dataset.since || "");
      const wait = Number(f.dataset.after || 120) * 1000;
      f.hidden = !(since && Date.now() - since >= wait);
    });
  }
  setInterval(revealHandovers, 5000);

  let audio = null;
  function beep() {
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      const o = audio.createOscillator();
      const g = audio.createGain();
      o.frequency.value = 660;
      g.gain.setValueAtTime(0.0001, audio.currentTime);
      g.gain.exponentialRampToValueAtTime(0.15, audio.currentTime + 0.02);
      g.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.25);
      o.connect(g).connect(audio.destination);
      o.start();
      o.stop(audio.currentTime + 0.3);
    } catch {}
  }

  // --- the connection ---------------------------------------------------------------------------------
  const conn = document.getElementById("conn-state");
  // Our POSTs name this page's socket: the server then doesn't push it the board the answer carries.
  // They name the board's ground the page shows too: the answer then leaves it out (hx-preserve).
  document.body.addEventListener("htmx:configRequest", (event) => {
    if (event.detail.verb !== "post") return;
    const name = document.getElementById("live-socket")?.dataset.channel;
    if (name) event.detail.headers["X-Live-Socket"] = name;
    const ground = document.getElementById("board-ground")?.dataset.ground;
    if (ground) event.detail.headers["X-Board-Ground"] = ground;
  });
  // 4503 closes in a row (such a socket opens, then closes at once): each retry waits longer, up to
  // about a minute, until a message arrives.
  let laterTries = 0;
  document.body.addEventListener("htmx:wsAfterMessage", () => { laterTries = 0; });
  // Until the socket is back the page says so where the player looks: the header's badge, and a line
  // over the board (the board may be out of date meanwhile).
  let closedForGood = false;
  const showConnection = (text, on) => {
    if (conn) {
      conn.textContent = text;
      conn.className = "conn-state " + (on ? "on" : "off");
    }
    page.classList.toggle("is-offline", !on);
    const banner = document.getElementById("conn-banner");
    if (banner) {
      banner.hidden = on;
      if (!on) banner.textContent = text;
    }
  };
  let socketOpen = false;
  let liveSocket = null;
  document.body.addEventListener("htmx:wsOpen", (event) => {
    closedForGood = false;
    socketOpen = true;
    liveSocket = event.detail.socketWrapper;
    showConnection("Live", true);
    event.detail.socketWrapper?.send(JSON.stringify({ resync: version() }));
  });
  // The browser knows first when the network went: say so before the socket times out.
  window.addEventListener("offline", () => { if (!closedForGood) showConnection("Reconnecting…", false); });
  // Back online with the socket still open (a short drop): it is live again, and asks what it missed.
  window.addEventListener("online", () => {
    if (!socketOpen || closedForGood) return;
    showConnection("Live", true);
    liveSocket?.send(JSON.stringify({ resync: version() }));
  });
  document.body.addEventListener("htmx:wsClose", (event) => {
    const code = event.detail.event?.code;
    socketOpen = false;
    // 4503: the server can't reach Redis now (games/web/consumers.py): try again later, as the ws extension
    // does by itself after network-type closes, with a growing, jittered delay.
    const socket = event.detail.socketWrapper;
    if (code === 4503 && socket?.reconnect) {
      const delay = 1000 * 2 ** Math.min(laterTries, 6) * (0.5 + Math.random() / 2);
      laterTries += 1;
      setTimeout(() => socket.reconnect(), delay);
    }
    // 4404: no such game; 4429: closed for sending too much (ludopat/frame_limit.py); 4403: a moderator
    // closed the account (accounts/users/sockets.py). The ws extension reconnects only after network-type
    // closes (1006, 1011-1013), so for these the page stays closed.
    const label = {
      4403: "Disconnected: a moderator closed your account",
      4404: "Disconnected: this game is not available",
      4429: "Disconnected: too many messages. Reload the page.",
    };
    closedForGood = code in label;
    showConnection(label[code] || "Reconnecting…", false);
  });

  // --- timers: count down locally from the server's deadline (epoch ms), corrected by the clock offset
  // measured when the page was rendered, so every viewer shows the same time left ---------------------
  const serverOffset = Number(page.dataset.serverNow || 0) ? Number(page.dataset.serverNow) - Date.now() : 0;
  const spoken = new Set();
  function tickTimers() {
    const now = Date.now() + serverOffset;
    document.querySelectorAll(".timer[data-deadline]").forEach((el) => {
      const deadline = Number(el.dataset.deadline);
      if (!deadline) return;
      const left = Math.max(0, Math.ceil((deadline - now) / 1000));
      const text = left + " s";
      if (el.textContent !== text) el.textContent = text;
      el.classList.toggle("urgent", left <= 5);
      // Say it at sensible moments only: 10 and 5 seconds left on your own turn, 10 left in a pause.
      const mine = el.dataset.mine === "1";
      const pause = el.dataset.pause === "1";
      for (const mark of [10, 5]) {
        const key = `${deadline}:${mark}`;
        if (left === mark && !spoken.has(key) && ((mine && live()?.dataset.myTurn === "1") || (pause && mark === 10))) {
          spoken.add(key);
          announce(pause ? `${mark} seconds left in the pause.` : `${mark} seconds left to play.`);
        }
      }
    });
  }
  setInterval(tickTimers, 250);

  // --- chat: free text before and after the game and in pauses, quick phrases during play (the same
  // rule as games/actions/chat.py: chat_mode); messages arrive over the WebSocket ----------------------
  function chatMode(root) {
    const status = root?.dataset.status;
    if (status === "playing") return root.dataset.paused === "1" ? "free" : "quick";
    return status === "open" || status === "finished" ? "free" : "closed";
  }
  const CHAT_NOTES = {
    watcher: "Only the players write here.",
    quick: "During play: the quick phrases. Write freely before and after the game, and in pauses.",
    closed: "This room is closed.",
  };
  function syncChat() {
    const root = live();
    const panel = document.getElementById("chat");
    if (!root || !panel) return;
    const player = root.classList.contains("is-player");
    const mode = chatMode(root);
    const form = document.getElementById("chat-form");
    const quick = document.getElementById("quick-phrases");
    const muted = panel.querySelector(".chat-muted");
    const note = panel.querySelector(".chat-note");
    if (form) form.hidden = !(player && mode === "free");
    if (quick) quick.hidden = !(player && mode !== "closed");
    if (muted) muted.hidden = !player;
    const noteKey = !player ? "watcher" : mode === "free" ? "" : mode;
    if (note) {
      note.hidden = !noteKey || (player && muted !== null);
      if (noteKey && note.textContent !== CHAT_NOTES[noteKey]) note.textContent = CHAT_NOTES[noteKey];
    }
    const log = document.getElementById("chat-log");
    if (log && log._count !== log.children.length) {
      log._count = log.children.length;
      log.scrollTop = log.scrollHeight;
    }
  }
  document.body.addEventListener("htmx:wsAfterSend", (event) => {
    const form = event.detail.elt?.closest?.("#chat-form") || event.target?.closest?.("#chat-form");
    if (form) form.reset();
  });
  document.body.addEventListener("htmx:afterRequest", (event) => {
    const form = event.detail.elt;
    if (form?.classList?.contains("report-form") && event.detail.successful) {
      const done = document.createElement("span");
      done.className = "small muted chat-reported";
      done.dataset.testid = form.closest(".chat-report")?.dataset.testid || "";
      done.textContent = "Reported";
      form.closest(".chat-report")?.replaceWith(done);
      toast("Thanks: the moderators will look at it.", "ok");
    }
  });
  document.body.addEventListener("htmx:wsAfterMessage", syncChat);
  document.body.addEventListener("htmx:afterSettle", syncChat);

  lastVersion = -1;
  afterUpdate();
  tickTimers();
  syncChat();
})();
