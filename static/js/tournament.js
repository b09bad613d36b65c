// The bracket page: the bracket is one render for every viewer, so the viewer's own match is marked
// here, from data-me and each match's data-players: highlighted, its link reading "Play your match".
(function () {
  "use strict";
  function markMine() {
    var page = document.querySelector("[data-me]");
    var me = page && page.dataset.me;
    if (!me) return;
    document.querySelectorAll(".bracket-match[data-players]").forEach(function (match) {
      var mine = match.dataset.players.split(" ").indexOf(me) !== -1;
      match.classList.toggle("mine", mine);
      var watch = match.querySelector("a.watch");
      if (mine && watch) {
        watch.textContent = "Play your match";
        watch.classList.add("button", "button-small");
      }
    });
  }
  document.addEventListener("DOMContentLoaded", markMine);
  document.addEventListener("htmx:oobAfterSwap", markMine);
})();
