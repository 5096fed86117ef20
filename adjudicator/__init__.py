"""adjudicator: a play-by-email judge for Diplomacy variants and card games."""

__version__ = "0.1.0"
