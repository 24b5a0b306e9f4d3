/* Print buttons (templates/tournaments/sheets.html): a <button data-print> opens the
   browser's print dialog. A file, not an onclick attribute: the Content-Security-Policy
   allows no inline script. */
(function () {
  "use strict";

  document.querySelectorAll("button[data-print]").forEach(function (button) {
    button.addEventListener("click", function () { window.print(); });
  });
})();
