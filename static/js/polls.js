// Polled regions (hx-trigger="every Ns": the staked lobby's rooms, the leaderboard's standings) are
// swapped only when what they show changed, and never while the player's focus or a text selection is
// inside them: a poll must not throw a keyboard user's focus to <body> or lose what they are reading.
(() => {
  "use strict";
  const polled = (elt) => /(^|,)\s*every\s/.test(elt?.getAttribute?.("hx-trigger") || "");
  // What a region shows, leaving out what differs between two renders of the same thing: the masked
  // CSRF token and a form's fresh idempotency key (the one on the page is as good), htmx's own
  // classes, the whitespace between tags.
  const shown = (root) => {
    const copy = root.cloneNode(true);
    copy.querySelectorAll('input[type="hidden"][name="csrfmiddlewaretoken"], input[type="hidden"][name="key"]').forEach((i) => i.removeAttribute("value"));
    [copy, ...copy.querySelectorAll("[class]")].forEach((el) => {
      [...el.classList].filter((c) => c.startsWith("htmx-")).forEach((c) => el.classList.remove(c));
      if (el.getAttribute("class") === "") el.removeAttribute("class");
    });
    return copy.innerHTML.replace(/>\s+</g, "><").trim();
  };
  const busy = (target) => {
    if (target.contains(document.activeElement) && document.activeElement !== document.body) return true;
    const selection = document.getSelection();
    return Boolean(selection && !selection.isCollapsed && selection.rangeCount && target.contains(selection.getRangeAt(0).commonAncestorContainer));
  };
  document.addEventListener("htmx:beforeSwap", (event) => {
    const { elt, target, xhr, requestConfig } = event.detail;
    if (!polled(elt) || requestConfig?.verb !== "get" || xhr.status !== 200 || !target) return;
    if (busy(target)) {
      event.detail.shouldSwap = false;
      return;
    }
    const incoming = document.createElement("div");
    incoming.innerHTML = xhr.responseText;
    const outer = (elt.getAttribute("hx-swap") || "innerHTML").startsWith("outerHTML");
    // outerHTML: the region and its own attributes are compared; innerHTML: what is inside it.
    const before = outer ? wrap(target) : target;
    if (shown(before) === shown(incoming)) event.detail.shouldSwap = false;
  });
  function wrap(el) {
    const box = document.createElement("div");
    box.append(el.cloneNode(true));
    return box;
  }
})();
