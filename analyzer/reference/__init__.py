"""Plain, slow reference implementations, written for clarity, that the kernels are checked against.

They deal individual cards (no multiplicities, no card-removal arithmetic, no suit
symmetry), so agreeing with them to the integer is independent evidence.
"""
