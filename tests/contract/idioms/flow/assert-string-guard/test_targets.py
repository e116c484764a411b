import pytest
from targets import submit_kind


@pytest.mark.parametrize("kind", ["gym", "gym-nightly"])
def test_supported_kinds(client, kind):
    assert submit_kind(client, kind).name


def test_unsupported_kind_is_a_bug(client):
    with pytest.raises(AssertionError):
        submit_kind(client, "harbor")
