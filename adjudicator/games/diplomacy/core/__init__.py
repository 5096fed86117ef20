"""The pure rules core: maps, orders, legality and adjudication.

Nothing in this package reads files other than map and grammar data, the
clock, the network or a random source; every function is a plain function
of its arguments.
"""
