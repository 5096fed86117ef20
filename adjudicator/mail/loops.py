"""Mail the judge must never answer: automatic replies, bounces, lists,
and its own mail coming back (mail loops)."""

from __future__ import annotations

from email.message import Message
from email.utils import parseaddr

AUTO_SUBMITTED_REPLY = "auto-replied"

_DAEMONS = ("mailer-daemon", "postmaster", "noreply", "no-reply", "do-not-reply", "donotreply")


def why_not_answered(message: Message, loop_id: str) -> str | None:
    """The reason ``message`` must not be answered, or ``None`` when it is
    a person's mail.  ``loop_id`` is the judge's own X-Loop value."""
    auto = (message.get("Auto-Submitted") or "no").strip().lower()
    if auto != "no":
        return f"Auto-Submitted: {auto}"
    precedence = (message.get("Precedence") or "").strip().lower()
    if precedence in ("bulk", "junk", "list"):
        return f"Precedence: {precedence}"
    for loop in message.get_all("X-Loop") or []:
        if loop.strip().lower() == loop_id.lower():
            return "the judge's own X-Loop header"
    if message.get("List-Id") or message.get("List-Unsubscribe"):
        return "mailing-list mail"
    if message.get_content_type() == "multipart/report":
        return "a delivery or read report"
    sender = parseaddr(message.get("From", ""))[1].lower()
    if not sender:
        return "no sender address"
    if sender.split("@")[0] in _DAEMONS:
        return f"sent by {sender}"
    return_path = message.get("Return-Path")
    if return_path is not None and return_path.strip() == "<>":
        return "a bounce (empty Return-Path)"
    return None
