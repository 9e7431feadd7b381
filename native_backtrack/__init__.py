"""Compiled C backtracker (work in progress)."""
