"""Translations of the exact-cover matrix: one module per target (CNF, CP-SAT, ILP)."""
