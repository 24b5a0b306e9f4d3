"""`make lan`: serve this laptop's Rummitab to the phones on the club's Wi-Fi.

    python -m config.lan [--port 8000] [--threads 8]

It finds the laptop's address on the local network (or takes `LAN_ADDRESS`), makes the
site answer to it (`ALLOWED_HOSTS`) and build every QR code and printed link from it
(`PUBLIC_BASE_URL`), prints the address (and a QR code of it for the organiser's own
phone), then serves the site on 0.0.0.0 (every interface). Variables already set in the
environment win over what it detects.

It is a production server for one room: DEBUG off (the site's own error pages, no
technical pages), plain http (`PLAIN_HTTP`: no https redirect, no secure-only cookies),
the static files collected at each start (seconds: hashed names, no compressed copies)
and served by whitenoise, the secret key from `SECRET_KEY_FILE` (made on the first
start, kept for every later one, so printed sheets stay valid; config/keyfile.py).

The server is waitress: one process with a pool of threads (`--threads`, `LAN_THREADS`,
8 by default). Chosen over gunicorn (already used in production) because gunicorn does
not run on Windows, and club laptops are often Windows or Mac; over several processes
because the in-process job queue and the periodic backup thread must live in the one
process that serves the requests. The threads share one SQLite file, whose writers queue
for its write lock (config/settings.py, DATABASES).

Anyone on the Wi-Fi can reach the site, so it refuses to start while the local
`admin`/`admin` account of `make run` still has that password, and offers to create an
organiser account when there is none.

Terms:
* LAN address — the IPv4 address the laptop would use to reach the internet: the
  interface the Wi-Fi is on. Found by "connecting" a UDP socket, which sends nothing.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import socket
import sys
from collections.abc import Mapping

import django
import segno
import waitress
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.servers.basehttp import get_internal_wsgi_application

# A documentation address (RFC 5737): routing towards it picks the outgoing interface.
PROBE = ("192.0.2.1", 9)


def lan_address(environ: Mapping[str, str] = os.environ) -> str:
    """The laptop's address on the local network; `LAN_ADDRESS` overrides it."""
    if environ.get("LAN_ADDRESS"):
        return environ["LAN_ADDRESS"].strip()
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(PROBE)
            address = probe.getsockname()[0]
    except OSError:
        address = ""
    if not address or address.startswith("0."):
        try:
            address = socket.gethostbyname(socket.gethostname())
        except OSError:
            address = "127.0.0.1"
    return address


def lan_environment(address: str, port: int, environ: Mapping[str, str]) -> dict[str, str]:
    """The variables the server runs with: the LAN address allowed and made the public
    base URL, unless the environment says otherwise; DEBUG off and plain http always (a
    DEBUG=1 left in the shell must not show technical pages to the whole room)."""
    hosts = [address, "localhost", "127.0.0.1", "[::1]"]
    extra = [h.strip() for h in environ.get("ALLOWED_HOSTS", "").split(",") if h.strip()]
    return {
        "ALLOWED_HOSTS": ",".join(dict.fromkeys(hosts + extra)),
        "PUBLIC_BASE_URL": environ.get("PUBLIC_BASE_URL") or f"http://{address}:{port}",
        "PORT": str(port),
        "DEBUG": "0",
        "PLAIN_HTTP": "1",
        # Hashed names, no pre-compressed copies: collecting then takes seconds at each
        # start instead of a minute of brotli, and a Wi-Fi room does not need them.
        "COMPRESS_STATIC": environ.get("COMPRESS_STATIC") or "0",
    }


def banner(base_url: str, address: str, port: int, *, given: bool = False) -> str:
    """What the organiser reads at the start; `given`: the address came from LAN_ADDRESS."""
    lines = [
        "",
        "Rummitab is serving the club's Wi-Fi:",
        f"  phones and sheets: {base_url}/",
        f"  this laptop:       http://127.0.0.1:{port}/",
        f"  API docs:          {base_url}/api/v1/docs/",
        "  QR codes on the table sheets point at the address above.",
    ]
    if address.startswith("127.") and given:
        lines.append("  LAN_ADDRESS is a loopback address: only this laptop can open these links.")
    elif address.startswith("127."):
        lines.append(
            "  No network address was found: connect to the Wi-Fi, or set LAN_ADDRESS "
            "(make lan LAN_ADDRESS=192.168.1.20)."
        )
    return "\n".join([*lines, ""])


def _accounts_ready(interactive: bool) -> str | None:
    """What stops the LAN server from starting safely, or None. Needs Django set up."""
    User = get_user_model()
    admin = User.objects.filter(username="admin", is_superuser=True).first()
    if admin is not None and admin.check_password("admin"):
        return (
            "The local admin account still has the password 'admin', and everyone on the "
            "Wi-Fi could use it. Change it first:\n  .venv/bin/python manage.py "
            "changepassword admin"
        )
    if not User.objects.filter(is_superuser=True, is_active=True).exists():
        if os.environ.get("DJANGO_SUPERUSER_USERNAME") and os.environ.get(
            "DJANGO_SUPERUSER_PASSWORD"
        ):
            call_command("createsuperuser", interactive=False, email="")
        elif interactive:
            print("No organiser account yet: create one (it signs in at /accounts/login/).")
            call_command("createsuperuser")
        else:
            return (
                "There is no organiser account yet. Create one first:\n"
                "  .venv/bin/python manage.py createsuperuser"
            )
    return None


def serve(host: str, port: int, threads: int) -> None:
    """Serve the site until interrupted: waitress, one process, `threads` threads."""
    # settings.WSGI_APPLICATION (config.wsgi), loaded as runserver and gunicorn load it:
    # what starts there for every server (the periodic backup thread) starts here too, in
    # the process that serves the requests.
    application = get_internal_wsgi_application()
    waitress.serve(
        application,
        host=host,
        port=port,
        threads=threads,
        ident="Rummitab",
        # Phones on a flaky Wi-Fi leave half-open connections behind: drop them sooner
        # than waitress's two minutes so they do not hold the connection limit.
        channel_timeout=60,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT") or "8000"))
    parser.add_argument("--threads", type=int, default=int(os.environ.get("LAN_THREADS") or "8"))
    # Every interface by default; the tests bind the loopback interface only.
    parser.add_argument("--host", default="0.0.0.0")
    args = parser.parse_args(argv)
    address = lan_address()
    os.environ.update(lan_environment(address, args.port, os.environ))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

    django.setup()
    refusal = _accounts_ready(interactive=sys.stdin.isatty())
    if refusal:
        print(refusal, file=sys.stderr)
        return 1
    # With DEBUG off the pages name their static files by the collected manifest.
    call_command("collectstatic", interactive=False, verbosity=0)
    base_url = os.environ["PUBLIC_BASE_URL"]
    print(banner(base_url, address, args.port, given=bool(os.environ.get("LAN_ADDRESS"))))
    segno.make(base_url + "/", error="m").terminal(compact=True)
    sys.stdout.flush()
    with contextlib.suppress(KeyboardInterrupt):  # Ctrl+C stops the server quietly
        serve(args.host, args.port, args.threads)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
