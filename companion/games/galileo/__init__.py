"""Galileo's Truth: the suspicion track, the Inquisition, cycles and the Cathedral."""

from .game import GAME, GalileoGame

__all__ = ["GAME", "GalileoGame"]
