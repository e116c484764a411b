"""Evaluation jobs of the QA team."""
