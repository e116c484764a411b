import pytest
from launcher import launch


def test_launch_simple_agent(client):
    assert launch(client, "simple_agent").name


def test_unknown_agent_stops_the_job(client):
    with pytest.raises(SystemExit, match="unknown agent"):
        launch(client, "rag_agent")
