"""The Voynich Puzzle: knowledge tracks, end scoring and the solo opponent's deck."""

from .game import GAME, VoynichGame

__all__ = ["GAME", "VoynichGame"]
