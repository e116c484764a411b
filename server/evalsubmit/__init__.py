"""evalsubmit: catch broken NeMo Platform evaluator submissions before they run."""

__version__ = "0.1.0"
