"""Names players type and read: a seat's, or a card's a table gives in its own words."""

from __future__ import annotations

import unicodedata

# what a refusal says of a name ``unshowable`` finds
UNSHOWN = ("holds a character that cannot be shown (a line break or an invisible mark): type it"
           " again")


def same_name(name: str) -> str:
    """A name as a player reads it: "Ann" and " ann", "Zoë" typed two ways, are one."""
    return unicodedata.normalize("NFKC", name).strip().casefold()


def unshowable(name: str) -> bool:
    """Whether ``name`` holds a character a phone cannot show: a line break, a NUL, a
    zero-width or right-to-left mark (unseen, or unsafe on a screen)."""
    return any(unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") for c in name)
