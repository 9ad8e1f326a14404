"""Table Companion: the companion app serious board gamers keep open beside the board."""
