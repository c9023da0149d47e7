"""Room names: the hall, and one room per table (who hears a table's public lines)."""
from __future__ import annotations

HALL = "hall"


def table_room(number: int) -> str:
    return f"table:{number}"
