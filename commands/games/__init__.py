"""Per-game verbs. Each module registers the commands of one game (``game=NAME``)."""
