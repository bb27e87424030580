"""The rules engine: pure and deterministic, it imports nothing else from ``app``.

The same sources also run compiled (mypyc) when `make` has built them: see `native.py`.
"""

from . import native

COMPILED = native.activate(__path__, "engine")
