"""Errors of the bot layer.

    BotError
    ├── BadRequestError   a flag or JSON-line key has a value the advisor cannot use (told to the user)
    └── ConfigError       a setting the chosen mode needs is missing (one line on stderr, exit 2)

Errors from the knowledge layer (`knowledge.errors.KnowledgeError`) pass through unchanged.
"""

from __future__ import annotations


class BotError(Exception):
    """Base class of the bot layer's errors."""


class BadRequestError(BotError, ValueError):
    """The request cannot be answered as given; the message is safe to show to the user."""


class ConfigError(BotError):
    """The process cannot start in the requested mode; the message names the missing setting."""
