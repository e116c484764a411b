"""The Harbor tests run the same checks with a Harbor runner."""

import pytest

from factories import make_harbor_runner


@pytest.fixture
def runner():
    return make_harbor_runner("harbor-runs/terminal")
