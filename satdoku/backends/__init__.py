"""Solving engines behind one interface, found by name in the registry."""
from satdoku.backends.base import Backend, Result, Status
from satdoku.backends.registry import available, get_backend

__all__ = ["Backend", "Result", "Status", "available", "get_backend"]
