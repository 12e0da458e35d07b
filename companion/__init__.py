"""Gambit Table Companion: a rules referee, camera, narrator and phone dashboard for the table."""

__version__ = "0.1.0"
