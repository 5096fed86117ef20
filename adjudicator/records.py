"""Immutable records that cost nothing to define (issue 20, S45).

``@dataclass(frozen=True)`` writes and compiles five or six methods for
every class when its module is imported (about 2 ms for a class of twenty
fields here), and the ``dataclasses`` module itself loads ``inspect``:
together some 30 ms of every command's start, for the configuration and
the store's rows alone.  A ``Record`` behaves as such a dataclass does:
its fields are its ``__slots__`` (in order) and are set once, by its own
``__init__`` through ``object.__setattr__``; it compares equal to a record
of the same class with equal fields, hashes as the tuple of its fields,
shows them all in its ``repr``, refuses assignment and deletion, pickles
and copies as a new record of the same fields, and ``replace`` makes a
changed copy.  Only its methods are shared code, written once here.

A record's fields are ``_fields``: its ``__slots__`` after those of the
record classes it extends (a subclass may add none, as 30JK's rules add
none to the standard's).  A class that must keep its fields in its
``__dict__`` (Diplomacy's position, which the resolver copies by its
field dictionary) names them in ``_fields`` itself and has no slots.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, Self, TypeVar

    T = TypeVar("T")


class FrozenRecordError(AttributeError):
    """A field of a record was assigned or deleted after its creation."""


class Record:
    """The shared behaviour of an immutable record; a subclass names its
    fields in ``__slots__`` (or ``_fields``, see the module) and sets each
    of them in its ``__init__``, which takes them positionally in that
    order (as pickling gives them back)."""

    __slots__: tuple[str, ...] = ()
    _fields: tuple[str, ...] = ()

    def __init_subclass__(cls, **options: Any) -> None:
        super().__init_subclass__(**options)
        if "_fields" not in cls.__dict__:
            cls._fields = (*cls._fields, *cls.__dict__.get("__slots__", ()))

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenRecordError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenRecordError(f"cannot delete field {name!r}")

    def _values(self) -> tuple[object, ...]:
        return tuple([getattr(self, name) for name in self._fields])

    def __repr__(self) -> str:
        fields = ", ".join([f"{name}={getattr(self, name)!r}" for name in self._fields])
        return f"{type(self).__qualname__}({fields})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self._values() == other._values()
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._values())

    def __reduce__(self) -> tuple[type[Self], tuple[object, ...]]:
        return self.__class__, self._values()

    def replace(self, **changes: Any) -> Self:
        """A copy with ``changes`` (field name -> value); ``TypeError`` for
        a name that is not a field, as ``dataclasses.replace`` raises."""
        values = {name: getattr(self, name) for name in self._fields}
        values.update(changes)
        return self.__class__(**values)


def replace(record: T, **changes: Any) -> T:
    """``record`` with ``changes``: ``Record.replace`` for a record,
    ``dataclasses.replace`` for a dataclass, so a module that changes both
    kinds imports one ``replace``."""
    if isinstance(record, Record):
        return record.replace(**changes)
    import dataclasses

    return dataclasses.replace(record, **changes)  # type: ignore[type-var]
