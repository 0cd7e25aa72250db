"""Shared fixtures of the Python tests: the source tree and the `sinew` program to compare with."""
import os
import pathlib

import pytest

SOURCE_DIR = pathlib.Path(os.environ.get("SINEW_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))


@pytest.fixture
def source_dir():
    """The sinew source tree (scenes/, tests/ data)."""
    return SOURCE_DIR


@pytest.fixture
def sinew_exe():
    """The `sinew` program of the same build ($SINEW_EXE, set by ctest); the test is skipped without it."""
    exe = os.environ.get("SINEW_EXE")
    if not exe or not os.path.exists(exe):
        pytest.skip("SINEW_EXE not set: run through ctest, or point it at build/apps/sinew")
    return exe
