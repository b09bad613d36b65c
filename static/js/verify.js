// Fair-dice verification in the browser (docs/record.md "Fair dice"), with the Web Crypto API.
//
// Every die of a game is HMAC-SHA256(key = server_seed's 64 ASCII characters,
// message = `${client_seed}:${nonce}`): the first digest byte below 252 gives `byte % 6 + 1`; if no byte
// is below 252 the message gets `:1`, `:2`, ... appended. Nonces count dice across the whole game (a
// two-dice roll uses two). The server shows SHA-256(server_seed) before the first roll and reveals the
// seed at the end, so a finished game's every roll can be recomputed here, without trusting the server.
(function () {
  "use strict";
  const encoder = new TextEncoder();
  const LIMIT = 252; // 42 x 6: bytes 0..251 map evenly onto six faces

  function hex(buffer) {
    return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
  }

  function subtle() {
    if (!window.crypto || !window.crypto.subtle) {
      throw new Error("this browser can't compute SHA-256 here (Web Crypto needs a secure https:// page)");
    }
    return window.crypto.subtle;
  }

  async function sha256Hex(text) {
    return hex(await subtle().digest("SHA-256", encoder.encode(text)));
  }

  async function hmacKey(serverSeed) {
    return subtle().importKey("raw", encoder.encode(serverSeed), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  }

  async function dieWithKey(key, clientSeed, nonce) {
    const base = `${clientSeed}:${nonce}`;
    let message = base;
    for (let retry = 1; ; retry++) {
      const digest = new Uint8Array(await subtle().sign("HMAC", key, encoder.encode(message)));
      for (const byte of digest) {
        if (byte < LIMIT) return (byte % 6) + 1;
      }
      message = `${base}:${retry}`;
    }
  }

  async function die(serverSeed, clientSeed, nonce) {
    return dieWithKey(await hmacKey(serverSeed), clientSeed, nonce);
  }

  async function dice(serverSeed, clientSeed, count, firstNonce = 0) {
    const key = await hmacKey(serverSeed);
    const out = [];
    for (let n = firstNonce; n < firstNonce + count; n++) out.push(await dieWithKey(key, clientSeed, n));
    return out;
  }

  function isAscii(text) {
    return /^[\x00-\x7f]*$/.test(text);
  }

  // The verdict on a record: {ok: true, rolls, dice, checked} or {ok: false, reason, message, ...}.
  // reason: "malformed" (not a record), "unfinished" (seed not revealed yet), "commitment" (the seed is not
  // the one committed to), "mismatch" (roll `roll`, 1-based, at action index `at`, differs).
  async function verifyRecord(record) {
    const fail = (reason, message, extra = {}) => ({ ok: false, reason, message, ...extra });
    if (!record || typeof record !== "object" || Array.isArray(record)) return fail("malformed", "This is not a game record.");
    const fair = record.fair;
    if (!fair || typeof fair !== "object") return fail("malformed", "This record has no fair-dice information.");
    if (typeof fair.server_seed_sha256 !== "string" || typeof fair.client_seed !== "string") {
      return fail("malformed", "This record's fair-dice information is incomplete.");
    }
    if (!("server_seed" in fair) || fair.server_seed === null || fair.server_seed === "") {
      return fail("unfinished", "This game is not over yet. The server seed is revealed when it ends; then every roll can be checked here.");
    }
    if (typeof fair.server_seed !== "string" || !isAscii(fair.server_seed)) {
      return fail("malformed", "The revealed server seed is not a string of ASCII characters.");
    }
    if (!Array.isArray(record.actions)) return fail("malformed", "This record has no list of actions.");
    const rolls = [];
    record.actions.forEach((action, at) => {
      if (action && typeof action === "object" && "roll" in action) rolls.push({ at, shown: action.roll });
    });
    for (const r of rolls) {
      if (!Array.isArray(r.shown) || !r.shown.every(Number.isInteger)) {
        return fail("malformed", `Action ${r.at} is a roll without a list of whole numbers.`);
      }
    }
    const seed = fair.server_seed;
    const hash = await sha256Hex(seed);
    if (hash !== fair.server_seed_sha256) {
      return fail("commitment", "The revealed server seed is not the one committed to: its SHA-256 is " + hash +
        ", but the game showed " + fair.server_seed_sha256 + ".", { hash });
    }
    const key = await hmacKey(seed);
    let nonce = 0;
    const checked = [];
    for (let i = 0; i < rolls.length; i++) {
      const { at, shown } = rolls[i];
      const expected = [];
      for (let k = 0; k < shown.length; k++) expected.push(await dieWithKey(key, fair.client_seed, nonce + k));
      const entry = { roll: i + 1, at, nonce, shown, fair: expected };
      nonce += shown.length;
      checked.push(entry);
      if (expected.length !== shown.length || expected.some((d, k) => d !== shown[k])) {
        return fail("mismatch",
          `Roll ${i + 1} (action ${at} of the record) does not match: the record shows ${shown.join(" and ")}, ` +
          `but the fair ${expected.length === 1 ? "die is" : "dice are"} ${expected.join(" and ")}.`,
          { roll: i + 1, at, shown, fair: expected, checked });
      }
    }
    return { ok: true, rolls: rolls.length, dice: nonce, checked, hash };
  }

  // ----- the verify page ----------------------------------------------------------------------------

  function text(el, value) {
    if (el) el.textContent = value;
  }

  function describeRoll(entry) {
    return entry.shown.join(" + ");
  }

  async function runPage(root) {
    const result = root.querySelector("[data-verify-result]");
    const setState = (state, message) => {
      root.dataset.state = state;
      result.dataset.state = state;
      text(result, message);
    };
    let record;
    try {
      const response = await fetch(root.dataset.recordUrl, { headers: { Accept: "application/json" }, credentials: "same-origin" });
      if (!response.ok) throw new Error(`the server answered ${response.status}`);
      record = await response.json();
    } catch (error) {
      setState("error", `The game's record could not be loaded (${error.message}). Try again in a moment.`);
      return;
    }
    const fair = (record && record.fair) || {};
    text(root.querySelector("[data-field=commitment]"), fair.server_seed_sha256 || "(none)");
    text(root.querySelector("[data-field=server-seed]"), fair.server_seed || "(revealed when the game ends)");
    text(root.querySelector("[data-field=client-seed]"), fair.client_seed || "(none)");
    let verdict;
    try {
      verdict = await verifyRecord(record);
    } catch (error) {
      setState("error", `Verification could not run: ${error.message}.`);
      return;
    }
    const table = root.querySelector("[data-verify-rolls]");
    if (verdict.checked && table) {
      const body = table.querySelector("tbody");
      body.replaceChildren();
      for (const entry of verdict.checked) {
        const row = document.createElement("tr");
        const good = entry.fair.every((d, k) => d === entry.shown[k]);
        for (const cell of [entry.roll, entry.at, entry.nonce, describeRoll(entry), entry.fair.join(" + "), good ? "✓" : "✗ differs"]) {
          const td = document.createElement("td");
          td.textContent = String(cell);
          row.append(td);
        }
        if (!good) row.className = "bad";
        body.append(row);
      }
      root.querySelector("[data-verify-details]").hidden = false;
    }
    if (verdict.ok) {
      setState("ok", `All ${verdict.rolls} rolls verified` + (verdict.dice !== verdict.rolls ? ` (${verdict.dice} dice).` : "."));
    } else {
      setState(verdict.reason, verdict.message);
      if (verdict.reason === "mismatch") {
        result.dataset.roll = String(verdict.roll);
        result.dataset.at = String(verdict.at);
      }
    }
  }

  window.LudopatFair = { sha256Hex, die, dice, verifyRecord };

  function start() {
    document.querySelectorAll("[data-verify-page]").forEach((root) => runPage(root));
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
