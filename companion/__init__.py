"""Table Companion: the companion app serious board gamers keep open beside the board.

The rules (companion.games) are plain Python; the web app is built by create_app, which
imports Flask only when called, so that importing the rules never loads the web layer.
"""


def create_app(test_config: dict | None = None):
    """Build the Flask app (development, tests and production alike)."""
    from .web import create_app as build

    return build(test_config)
