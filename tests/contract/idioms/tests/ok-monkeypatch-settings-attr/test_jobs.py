"""The suite sets the worker count through monkeypatch before submitting."""

import pytest
from nemo_platform import NeMoPlatform

import jobs
import settings


@pytest.fixture(autouse=True)
def workers(monkeypatch):
    monkeypatch.setattr(settings, "CONCURRENCY", 8)


def test_submit():
    client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
    jobs.submit(client)


def test_submit_nightly(monkeypatch):
    monkeypatch.setattr("settings.SUITE", "qa/nightly")
    client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
    jobs.submit(client)
