"""Moving a judge from one database to another (``adjudicator db copy``).

Every table the migrations create is copied row by row, every column as
stored (raw mails, games and their history, the outbox, counters, claims;
a mail not yet handled is sealed anew under the target's mail key), from one consistent snapshot of the source into an empty target, in one
transaction: either the whole judge arrives or nothing does.  Either
direction works (SQLite to PostgreSQL, back, or between two of a kind).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from adjudicator.service.sealing import SealError
from adjudicator.service.store import MIGRATIONS, Store, StoreError

_CREATE = re.compile(r"^\s*CREATE TABLE (\w+)", re.IGNORECASE)
_BATCH = 500


def tables() -> tuple[str, ...]:
    """The judge's tables in the order the migrations create them (a table
    another refers to comes first)."""
    names = []
    for statements in MIGRATIONS:
        for statement in statements:
            match = _CREATE.match(statement)
            if match and match[1] not in names:
                names.append(match[1])
    return tuple(names)


def _columns(store: Store, table: str) -> list[str]:
    cursor = store.connection.execute(f"SELECT * FROM {table} WHERE 1 = 0")
    description = getattr(cursor, "description", None) or ()
    return [str(column[0]) for column in description]


@dataclass(frozen=True)
class CopySummary:
    """Rows copied per table, in copying order."""

    rows: tuple[tuple[str, int], ...]

    @property
    def total(self) -> int:
        """All rows copied."""
        return sum(count for _, count in self.rows)


def copy_database(source: Store, target: Store) -> CopySummary:
    """Copy every row of ``source`` into ``target``.  Both must be at this
    judge's schema version; the target must hold no rows (``StoreError``
    otherwise, and nothing is written).  Table names come from this
    module's own list, never from input."""
    for store in (source, target):
        if store.schema_version != len(MIGRATIONS):
            raise StoreError(f"database {store.name} is at schema {store.schema_version}, not {len(MIGRATIONS)}:"
                             " run adjudicator db migrate on it first")
    names = tables()
    copied: list[tuple[str, int]] = []
    with source.snapshot() as reading, target.transaction() as writing:
        for table in names:
            if writing.execute(f"SELECT 1 FROM {table} LIMIT 1").fetchone() is not None:
                raise StoreError(f"database {target.name} is not empty (table {table} has rows): copy into a new one")
        for table in names:
            columns = _columns(source, table)
            missing = set(columns) - set(_columns(target, table))
            if missing:
                raise StoreError(f"database {target.name}: table {table} lacks {', '.join(sorted(missing))}")
            insert = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' for _ in columns)})"
            cursor = reading.execute(f"SELECT {', '.join(columns)} FROM {table}")
            sealed = columns.index("sealed") if table == "inbound" and "sealed" in columns else -1
            count = 0
            while True:
                batch = cursor.fetchmany(_BATCH)
                if not batch:
                    break
                rows = [[bytes(v) if isinstance(v, memoryview) else v for v in row] for row in batch]
                for row in rows if sealed >= 0 else ():
                    if row[sealed] is not None:
                        try:
                            row[sealed] = target.mail_key.seal(source.mail_key.unseal(row[sealed]))
                        except SealError as error:
                            raise StoreError(f"database {source.name}: a mail not yet handled: {error}") from error
                writing.executemany(insert, [tuple(row) for row in rows])
                count += len(batch)
            copied.append((table, count))
    return CopySummary(tuple(copied))
