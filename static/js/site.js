// Small progressive enhancements shared by every page.
document.addEventListener("DOMContentLoaded", () => {
  const toggle = document.querySelector(".nav-toggle");
  const links = document.getElementById("nav-links");
  if (toggle && links) {
    toggle.addEventListener("click", () => {
      const open = links.classList.toggle("open");
      toggle.setAttribute("aria-expanded", String(open));
    });
  }
});

// A button with data-confirm asks before its form is sent (no inline onclick: the CSP forbids them).
document.addEventListener("click", (event) => {
  const button = event.target.closest?.("[data-confirm]");
  if (button && !window.confirm(button.dataset.confirm)) event.preventDefault();
});

// Pushed notices with a data-notice key replace the one before them (the newest comes first): a
// tournament's "starts in 10 s" leaves once its match starts, and notices don't pile up.
document.addEventListener("htmx:oobAfterSwap", () => {
  const seen = new Set();
  for (const notice of document.querySelectorAll("[data-notice]")) {
    if (seen.has(notice.dataset.notice)) notice.remove();
    else seen.add(notice.dataset.notice);
  }
});

// A challenge's notice (games/challenges): a refused Accept or Decline answers with the sentence in
// the notice's place, so it is swapped in like an answer; and once a challenge is accepted, its own
// page (the challenger waiting on it) goes to the room.
document.addEventListener("htmx:beforeSwap", (event) => {
  const status = event.detail.xhr.status;
  if (status >= 400 && status < 500 && event.detail.elt?.closest?.("[data-challenge-notice]")) {
    event.detail.shouldSwap = true;
    event.detail.isError = false;
  }
});
document.addEventListener("htmx:oobAfterSwap", () => {
  for (const accepted of document.querySelectorAll("[data-go][data-href]")) {
    if (document.querySelector(`[data-waiting-for="${accepted.dataset.go}"]`)) {
      window.location.assign(accepted.dataset.href);
      return;
    }
  }
});
