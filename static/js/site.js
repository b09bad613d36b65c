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
