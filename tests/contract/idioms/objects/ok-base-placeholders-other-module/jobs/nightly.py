"""The concrete jobs."""

from jobs.base import BaseJob


class NightlyJob(BaseJob):
    SUITE = "qa/nightly"
    REPEATS = 3


class SmokeJob(BaseJob):
    SUITE = "qa/smoke"
    REPEATS = 1
