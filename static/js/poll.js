/* Conditional polling for htmx: every element with data-etag sends that ETag back as
   If-None-Match when htmx polls it. The server answers 304 while nothing changed, and
   then nothing is swapped (htmx would otherwise swap the empty body in). A 200 brings
   the new content, which carries its own data-etag.

   The header is set here rather than left to the browser's HTTP cache on purpose: for
   an If-None-Match the page sets itself, the browser hands the 304 to the script as it
   is, instead of turning it into a 200 with the cached body (which htmx would swap). */
(function () {
  "use strict";
  document.addEventListener("htmx:configRequest", function (event) {
    var etag = event.detail.elt.getAttribute("data-etag");
    if (etag && event.detail.verb === "get") {
      event.detail.headers["If-None-Match"] = etag;
    }
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    var xhr = event.detail.xhr;
    if (xhr.status === 304) {
      event.detail.shouldSwap = false;
      return;
    }
    var etag = xhr.getResponseHeader("ETag");
    if (etag && event.detail.elt && event.detail.elt.hasAttribute("data-etag")) {
      event.detail.elt.setAttribute("data-etag", etag);
    }
  });
})();
