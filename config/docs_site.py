"""The documentation site at /docs/: the MkDocs build of the repository's docs/ folder,
served by the running app so that the club laptop has its help offline.

Terms:

* build — `make docs` (and so `make run` and `make lan`) runs `mkdocs build`, which writes
  the static site into `build/docs/` (gitignored; `DOCS_ROOT` names another folder). The
  site is built, not committed: the Markdown in docs/ is the one source, and the build
  needs nothing from the network (the Material theme's fonts are off, its search runs in
  the browser). MkDocs is a build tool, not a dependency of the running site: this view
  only reads files.
* page — an address under /docs/ is a file of the build; an address ending in `/` is that
  folder's `index.html` (MkDocs' directory URLs); a folder without its `/` is redirected
  to it, so the pages' relative links resolve.

The site's Content-Security-Policy allows no inline script, and the Material theme has a
few small ones in every page (its palette and the search's scope). Rather than loosen
the policy for the docs, each HTML answer adds the SHA-256 hashes of exactly the inline
scripts of that file to `script-src` (read from the built file, so a new theme version
needs no change here); everything else stays as strict as the rest of the site.
"""

from __future__ import annotations

import base64
import hashlib
import re
from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponseRedirect
from django.http.response import HttpResponseBase
from django.views.static import serve

# An executable inline script: a <script> without src (the JSON of `type="application/
# json"` is data, which the policy does not govern, so it is left out).
# The response attribute through which a view adds to its page's Content-Security-Policy
# (django-csp's middleware reads it).
CSP_UPDATE = "_csp_update"
INLINE_SCRIPT = re.compile(rb"<script(?P<attrs>[^>]*)>(?P<body>.*?)</script>", re.DOTALL)


@lru_cache(maxsize=256)
def _script_hashes(path: str, mtime_ns: int) -> tuple[str, ...]:
    """The CSP source expressions of one built page's inline scripts (kept per file and
    modification time: a rebuild gives new hashes)."""
    hashes = []
    for match in INLINE_SCRIPT.finditer(Path(path).read_bytes()):
        attrs = match["attrs"].lower()
        if b"src=" in attrs or b"application/json" in attrs:
            continue
        digest = base64.b64encode(hashlib.sha256(match["body"]).digest()).decode()
        hashes.append(f"'sha256-{digest}'")
    return tuple(dict.fromkeys(hashes))


def docs_page(request: HttpRequest, path: str = "") -> HttpResponseBase:
    """One file of the built documentation, or 404 (also when it has not been built)."""
    root = Path(settings.DOCS_ROOT)
    if not (root / "index.html").is_file():
        raise Http404("The documentation is not built: run `make docs`.")
    if ".." in path.split("/") or "\\" in path:
        raise Http404("No such page.")  # never a path out of the build
    if path and not path.endswith("/") and (root / path).is_dir():
        return HttpResponseRedirect(request.path + "/")
    if path == "" or path.endswith("/"):
        path += "index.html"
    response = serve(request, path, document_root=str(root))  # safe joining, 404, 304
    if path.endswith(".html") and response.status_code == 200:
        file = (root / path).resolve()
        hashes = _script_hashes(str(file), file.stat().st_mtime_ns)
        if hashes:
            setattr(response, CSP_UPDATE, {"script-src": list(hashes)})
    return response
