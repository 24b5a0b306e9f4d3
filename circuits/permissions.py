"""Who may run a circuit: its administrators and superusers (the install's
administrators, who alone create circuits)."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext as _

from tournaments.permissions import User

from .models import Circuit, CircuitAdministrator


def _superuser(user: User) -> bool:
    return bool(user.is_authenticated and getattr(user, "is_superuser", False))


def can_run_circuit(user: User, circuit: Circuit) -> bool:
    if not user.is_authenticated:
        return False
    return (
        _superuser(user) or CircuitAdministrator.objects.filter(circuit=circuit, user=user).exists()
    )


def runs_any_circuit(user: User) -> bool:
    """A circuit administrator anywhere on the install (merges people, sees their details)."""
    if not user.is_authenticated:
        return False
    return _superuser(user) or CircuitAdministrator.objects.filter(user=user).exists()


def require_circuit(by: User, circuit: Circuit) -> None:
    if not can_run_circuit(by, circuit):
        raise PermissionDenied(_("Only the circuit's administrators may do this."))


def require_circuit_creator(by: User) -> None:
    if not _superuser(by):
        raise PermissionDenied(_("Only the site's administrators create circuits."))
