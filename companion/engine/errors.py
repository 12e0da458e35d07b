"""Rules errors: each message names the action, the seat and the reason."""

from companion.errors import CompanionError


class RulesError(CompanionError, ValueError):
    """Something the rules refuse. Subclasses ValueError, as python-chess does."""


class UnknownGameError(RulesError):
    """No game is registered under that name."""


class SetupError(RulesError):
    """A game cannot be set up with these seats, options or deal."""


class IllegalActionError(RulesError):
    """An action the rules refuse now; the state is unchanged.

    The message reads ``cannot strike by seat 1 (Ben): seat 3 (Dan) is dead``.
    """

    def __init__(self, action: str, seat: str, reason: str, words: str = "") -> None:
        super().__init__(f"cannot {action} by {seat}: {reason}")
        self.action = action
        self.seat = seat
        self.reason = reason
        # the reason as a phone says it, a field by its label ("Energy to give must be at
        # most 3"), where it differs from ``reason`` (which names the field "amount")
        self.words = words or reason


class UnknownActionError(IllegalActionError):
    """The game has no action by that name."""


class UndoError(RulesError):
    """Nothing to undo, or an undo without a reason past information already revealed."""
