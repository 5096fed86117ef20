"""The exception shared by legality checks and variant hooks."""


class Illegal(Exception):
    """An order that cannot be carried out; the message is the reason."""
