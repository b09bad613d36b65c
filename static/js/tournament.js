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

// The chat's form empties once its line is sent (the line itself comes back over the socket).
(function () {
  "use strict";
  document.addEventListener("htmx:afterRequest", function (event) {
    var form = event.target;
    if (form && form.id === "chat-form" && event.detail.successful && !event.detail.xhr.responseText) {
      form.reset();
    }
  });
})();

// Scheduled starts: the time in the viewer's own time zone, and a countdown kept live ("in 4 min 12 s",
// then "starting now").
(function () {
  "use strict";
  function localTimes() {
    document.querySelectorAll("time.local-time[datetime]").forEach(function (el) {
      var at = new Date(el.getAttribute("datetime"));
      if (isNaN(at)) return;
      el.textContent = at.toLocaleString([], {weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit"});
      el.title = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
    });
  }
  function left(ms) {
    var s = Math.max(0, Math.round(ms / 1000));
    if (s === 0) return "starting now";
    var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
    if (h) return "in " + h + " h " + m + " min";
    if (m) return "in " + m + " min " + sec + " s";
    return "in " + sec + " s";
  }
  function tick() {
    var now = Date.now();
    document.querySelectorAll(".countdown[data-starts]").forEach(function (el) {
      var text = left(Number(el.dataset.starts) - now);
      if (el.textContent !== text) el.textContent = text;
    });
  }
  document.addEventListener("DOMContentLoaded", function () {
    localTimes();
    tick();
    setInterval(tick, 1000);
  });
})();
