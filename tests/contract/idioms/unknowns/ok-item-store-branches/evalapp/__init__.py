"""Evaluation jobs of the support-bot team."""
