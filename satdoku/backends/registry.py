"""Backends by name, imported only when asked for, so a missing solver never breaks the import."""
from __future__ import annotations

import importlib
from dataclasses import dataclass

from satdoku.backends.base import Backend
from satdoku.errors import BackendUnavailable

DEFAULT_BACKEND = "pysat"

# family name -> "module:class"; a family's module is imported only when that family is used.
FAMILIES: dict[str, str] = {
    "pysat": "satdoku.backends.pysat:PysatBackend",
    "external": "satdoku.backends.external:ExternalBackend",
    "cpsat": "satdoku.backends.cpsat:CpsatBackend",
    "ilp": "satdoku.backends.ilp:IlpBackend",
    "dlx": "satdoku.backends.dlx:DlxBackend",
    "backtrack": "satdoku.backends.backtrack:BacktrackBackend",
    "logic": "satdoku.backends.logic:LogicBackend",
}


def family_class(family: str) -> type[Backend]:
    """The Backend class of a family, importing its module now."""
    if family not in FAMILIES:
        raise BackendUnavailable(f"unknown backend {family!r}; known: {', '.join(FAMILIES)}")
    module_name, class_name = FAMILIES[family].split(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as err:
        raise BackendUnavailable(f"backend {family!r} is not installed ({err})") from None
    return getattr(module, class_name)


def get_backend(name: str | None = None, **options: object) -> Backend:
    """A backend from its name ('pysat', 'pysat:glucose4', 'external:minisat', 'dlx' ...) and options.

    >>> get_backend("pysat").name
    'pysat:cadical195'
    """
    family, _, engine = (name or DEFAULT_BACKEND).partition(":")
    return family_class(family.strip().lower())(engine.strip() or None, **options)


@dataclass
class BackendInfo:
    """One line of `satdoku backends`."""

    family: str
    installed: bool
    version: str
    engines: list[str]
    note: str = ""


def available() -> list[BackendInfo]:
    """Every family, whether its library imports here, its version and engines."""
    infos = []
    for family in FAMILIES:
        try:
            cls = family_class(family)
            infos.append(BackendInfo(family, True, cls.version(), cls.engines()))
        except BackendUnavailable as err:
            infos.append(BackendInfo(family, False, "", [], str(err)))
    return infos
