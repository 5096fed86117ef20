"""Why an order or a reveal is not allowed, as a catalogue entry
(``kreml_err_<key>`` in ``templates/texts/kreml.toml``) with its fields, so
that the judge can word it in the game's language (``Note``) and the
module in either language."""

from __future__ import annotations

from dataclasses import dataclass

from adjudicator.games.base import Note
from adjudicator.games.kreml import words


@dataclass(frozen=True)
class Reason:
    """A refusal: the catalogue key (without ``kreml_err_``) and its fields."""

    key: str
    fields: tuple[tuple[str, str], ...] = ()

    def text(self, language: str = "en") -> str:
        """The reason in ``language``."""
        return words.say(f"err_{self.key}", language, **dict(self.fields))

    def note(self) -> Note:
        """The reason as a ``Note`` for the judge's answer."""
        return Note(f"kreml_err_{self.key}", self.fields)

    def both(self) -> dict[str, str]:
        """The reason in German and English."""
        return {language: self.text(language) for language in words.LANGUAGES}

    def __str__(self) -> str:
        return self.text("en")


def reason(key: str, **fields: object) -> Reason:
    """A ``Reason`` with its fields as text."""
    return Reason(key, tuple((name, str(value)) for name, value in fields.items()))
