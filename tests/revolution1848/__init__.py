"""Test data and helpers of the 1848 card game."""
