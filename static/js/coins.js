// The nav's coin balance follows the game page: when a staked game's result arrives (pushed over the
// game's socket or in a POST's answer), it carries the player's new balance in [data-nav-balance].
(function () {
  "use strict";
  function update() {
    var source = document.querySelector("[data-nav-balance]");
    var target = document.getElementById("nav-balance");
    if (source && target && target.textContent !== source.dataset.navBalance) {
      target.textContent = source.dataset.navBalance;
    }
  }
  document.addEventListener("DOMContentLoaded", function () {
    update();
    new MutationObserver(update).observe(document.body, { childList: true, subtree: true });
  });
})();
