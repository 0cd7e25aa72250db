"""sinew from Python: scene files and simulations, Krylov and contact solvers on numpy / scipy arrays.

Everything is defined in the compiled module ``sinew._sinew``; see docs/python.md.
"""
from ._sinew import *  # noqa: F401,F403
from ._sinew import Error, __doc__ as _module_doc  # noqa: F401

__all__ = [name for name in dir() if not name.startswith("_")]
__version__ = "0.1.0"
