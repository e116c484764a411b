import pytest
from stages import submit_stage


def test_smoke_stage(client):
    assert submit_stage(client, "smoke").name


def test_unknown_stage_exits(client):
    with pytest.raises(SystemExit):
        submit_stage(client, "canary")
