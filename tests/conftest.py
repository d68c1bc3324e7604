"""Shared fixtures."""
import pytest

from analyzer import baccarat


@pytest.fixture(scope="session")
def baccarat_rules():
    return baccarat.load_rules()
