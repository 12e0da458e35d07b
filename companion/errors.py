"""The root of the companion's errors, so callers can catch everything the companion raises."""


class CompanionError(Exception):
    """Base class of every error the companion raises on purpose."""


class ConfigError(CompanionError, ValueError):
    """A setting or option is missing or has a bad value."""
