"""The model every encoder translates: geometry, puzzles and formats, the exact-cover matrix, the verifier."""
