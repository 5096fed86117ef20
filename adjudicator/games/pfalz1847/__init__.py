"""1847 AE (1847: Pfalz) as a turn-based game module of the judge (``module.Pfalz1847``)."""
