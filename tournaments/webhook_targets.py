"""Where a webhook may point: the target rules, checked when a hook is registered and
again before every attempt (`tournaments.services.webhooks`,
`tournaments.services.webhook_deliveries`).

Terms:
* target rules — where a hook may point, checked when it is registered (a 400 naming
  `url`) and again before every attempt (DNS may have changed): an http(s) URL without a
  user name or password, on port 80, 443 or any port from 1024 up except the ports of
  databases, brokers and caches (`REFUSED_PORTS`; the privileged ports below 1024 are
  other services: mail, SSH, ...); its host resolved, and *every* address it has a
  public one — never loopback, private, shared (CGNAT), link-local, multicast,
  unspecified, "this network" (0.0.0.0/8) or reserved, an IPv4 address inside an IPv6
  one (`::ffff:127.0.0.1`, NAT64, 6to4, Teredo) judged as itself. The resolver reads
  the odd spellings (`127.1`, `2130706433`, `0x7f.1`) as what they mean.
  `WEBHOOK_ALLOW_PRIVATE` (off by default) also allows loopback and the private networks
  (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7) for a club's own LAN; never the
  others, nor the refused ports. A host that cannot be found at registration is accepted
  (a club may set up while offline); the delivery checks again.
"""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import SplitResult, urlsplit

from django.conf import settings
from django.utils.translation import gettext as _

# Target rules (see the module): the ports allowed besides 80 and 443 start here ...
MIN_PORT = 1024
# ... except the ports of the services a Rummitab server itself runs on or beside
# (databases, brokers, caches, a Docker API), refused even where private targets are
# allowed: a webhook must never be able to speak to them.
REFUSED_PORTS = frozenset({2375, 2376, 3306, 5432, 5672, 6379, 9200, 11211, 27017})
# Allowed only with WEBHOOK_ALLOW_PRIVATE: this machine and the private networks.
PRIVATE_NETWORKS = tuple(
    ipaddress.ip_network(network)
    for network in (
        "127.0.0.0/8",
        "10.0.0.0/8",
        "172.16.0.0/12",
        "192.168.0.0/16",
        "100.64.0.0/10",
        "::1/128",
        "fc00::/7",
    )
)
# Never allowed, beside the unspecified, multicast, link-local and reserved addresses:
# "this network" (0.x.x.x reaches the machine itself on Linux).
ALWAYS_REFUSED = (ipaddress.ip_network("0.0.0.0/8"),)
NAT64 = ipaddress.ip_network("64:ff9b::/96")

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


class Refused(Exception):
    """A target the rules refuse (`check_target`); the message says why, for the
    organiser who registers the hook."""


def _not_public() -> Refused:
    return Refused(
        _(
            "must reach a public address: this server, private networks and reserved "
            "addresses are refused."
        )
    )


def _address_permitted(address: IPAddress, allow_private: bool) -> bool:
    """Whether a connection to `address` is allowed (see the module's *target rules*)."""
    address = _embedded_ipv4(address)
    if (
        address.is_unspecified
        or address.is_multicast
        or address.is_link_local
        or any(address in network for network in ALWAYS_REFUSED)
    ):
        return False
    if allow_private and any(address in network for network in PRIVATE_NETWORKS):
        return True  # before `is_reserved`: Python counts ::1 among the reserved ::/8
    return address.is_global and not address.is_reserved


def _embedded_ipv4(address: IPAddress) -> IPAddress:
    """The IPv4 address an IPv6 one carries (IPv4-mapped `::ffff:a.b.c.d`, NAT64
    `64:ff9b::a.b.c.d`, 6to4, Teredo), judged as itself; any other address unchanged."""
    if not isinstance(address, ipaddress.IPv6Address):
        return address
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address in NAT64:
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    if address.sixtofour is not None:
        return address.sixtofour
    if address.teredo is not None:
        return address.teredo[1]
    return address


def _port(parts: SplitResult) -> int:
    try:
        port = parts.port
    except ValueError:
        raise Refused(_("has a port that is not a number from 1 to 65535.")) from None
    if port is None:
        return 443 if parts.scheme == "https" else 80
    if port in (80, 443) or (port >= MIN_PORT and port not in REFUSED_PORTS):
        return port
    raise Refused(
        _("port %(port)s is not allowed: use 80, 443 or a port from %(minimum)s up.")
        % {"port": port, "minimum": MIN_PORT}
    )


def _split(url: str) -> tuple[SplitResult, str, int]:
    """The URL's parts, its host (ASCII) and port, refusing what is not an ordinary
    http(s) address."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise Refused(_("must be an http:// or https:// address with a host."))
    if parts.username is not None or parts.password is not None:
        raise Refused(_("must not hold a user name or password (use the signature)."))
    try:
        host = parts.hostname.encode("idna").decode("ascii")
    except UnicodeError:
        raise Refused(_("has a host name that is not valid.")) from None
    return parts, host, _port(parts)


def _resolve(host: str, port: int) -> list[IPAddress]:
    """Every address `host` has (a literal address is itself); OSError when it has none.
    The system resolver reads the legacy forms too (`127.1`, `2130706433`, `0x7f.1`),
    so they are judged by the address they mean."""
    found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP)
    addresses = []
    for *_info, sockaddr in found:
        try:
            addresses.append(ipaddress.ip_address(sockaddr[0]))
        except ValueError:  # a scoped IPv6 address ("fe80::1%eth0"): link-local anyway
            raise _not_public() from None
    if not addresses:
        raise OSError("no address")
    return list(dict.fromkeys(addresses))


def check_target(
    url: str, *, allow_private: bool | None = None
) -> tuple[SplitResult, str, int, list[IPAddress]]:
    """The URL's parts, host, port and the addresses to connect to, every one of them
    permitted; `Refused` when the address or any address its host has is not allowed,
    OSError when the host cannot be found now.

    A host with several addresses is refused when any of them is not allowed (otherwise
    which one a connection gets would decide)."""
    if allow_private is None:
        allow_private = settings.WEBHOOK_ALLOW_PRIVATE
    parts, host, port = _split(url)
    addresses = _resolve(host, port)
    if not all(_address_permitted(address, allow_private) for address in addresses):
        raise _not_public()
    return parts, host, port, addresses
