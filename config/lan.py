"""`make lan`: serve this laptop's Rummitab to the phones on the club's Wi-Fi.

    python -m config.lan [--port 8000]

It finds the laptop's address on the local network (or takes `LAN_ADDRESS`), makes the
site answer to it (`ALLOWED_HOSTS`) and build every QR code and printed link from it
(`PUBLIC_BASE_URL`), prints the address (and a QR code of it for the organiser's own
phone), then runs Django's server on 0.0.0.0 (every interface). Variables already set in
the environment win over what it detects.

Anyone on the Wi-Fi can reach the site, so it refuses to start while the local
`admin`/`admin` account of `make run` still has that password, and offers to create an
organiser account when there is none. It runs with DEBUG on, like `make run` (Django's
server serves the static files); a club that serves the internet uses the production
set-up instead (docs/operations/production.md).

Terms:
* LAN address — the IPv4 address the laptop would use to reach the internet: the
  interface the Wi-Fi is on. Found by "connecting" a UDP socket, which sends nothing.
"""

from __future__ import annotations

import argparse
import os
import socket
import sys
from collections.abc import Mapping
from pathlib import Path

import django
import segno
from django.contrib.auth import get_user_model
from django.core.management import call_command

BASE_DIR = Path(__file__).resolve().parent.parent
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
    base URL, unless the environment says otherwise."""
    hosts = [address, "localhost", "127.0.0.1", "[::1]"]
    extra = [h.strip() for h in environ.get("ALLOWED_HOSTS", "").split(",") if h.strip()]
    return {
        "ALLOWED_HOSTS": ",".join(dict.fromkeys(hosts + extra)),
        "PUBLIC_BASE_URL": environ.get("PUBLIC_BASE_URL") or f"http://{address}:{port}",
        "DEBUG": environ.get("DEBUG") or "1",
    }


def banner(base_url: str, address: str, port: int) -> str:
    loopback = address.startswith("127.")
    lines = [
        "",
        "Rummitab is serving the club's Wi-Fi:",
        f"  phones and sheets: {base_url}/",
        f"  this laptop:       http://127.0.0.1:{port}/",
        f"  API docs:          {base_url}/api/v1/docs/",
        "  QR codes on the table sheets point at the address above.",
    ]
    if loopback:
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    args = parser.parse_args(argv)
    address = lan_address()
    os.environ.update(lan_environment(address, args.port, os.environ))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

    django.setup()
    refusal = _accounts_ready(interactive=sys.stdin.isatty())
    if refusal:
        print(refusal, file=sys.stderr)
        return 1
    base_url = os.environ["PUBLIC_BASE_URL"]
    print(banner(base_url, address, args.port))
    segno.make(base_url + "/", error="m").terminal(compact=True)
    sys.stdout.flush()
    manage = str(BASE_DIR / "manage.py")
    os.execv(sys.executable, [sys.executable, manage, "runserver", f"0.0.0.0:{args.port}"])
    return 0  # not reached: the server replaced this process


if __name__ == "__main__":
    raise SystemExit(main())
