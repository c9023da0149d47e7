"""Account commands (keys, password): written by the SSH work."""
