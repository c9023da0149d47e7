"""A value that belongs to the running task alone.

A context variable is copied into every task started while it is set, and lives there as long as
the task does: a login pokes a table's runner, whose bot and clock tasks then run for the rest of
the game with whatever the login had set. :class:`TaskLocal` is kept by task instead (outside any
task, by thread): what the task awaits sees it, a task it starts sees nothing, and once the
``bound`` block ends no copy of the value is left anywhere.
"""
from __future__ import annotations

import asyncio
import contextlib
import threading
from typing import Generic, Hashable, Iterator, TypeVar

T = TypeVar("T")


def _holder() -> Hashable:
    """The running task, or (outside any task) the thread."""
    try:
        task = asyncio.current_task()
    except RuntimeError:  # no event loop runs in this thread
        task = None
    return task if task is not None else threading.get_ident()


class TaskLocal(Generic[T]):
    __slots__ = ("name", "default", "_values")

    def __init__(self, name: str, default: T) -> None:
        self.name, self.default = name, default
        self._values: dict[Hashable, T] = {}

    def get(self) -> T:
        values = self._values
        return values.get(_holder(), self.default) if values else self.default

    @contextlib.contextmanager
    def bound(self, value: T) -> Iterator[None]:
        """``value`` for this task (and what it awaits) within the block; the one before after it."""
        holder = _holder()
        had, before = holder in self._values, self._values.get(holder, self.default)
        self._values[holder] = value
        try:
            yield
        finally:
            if had:
                self._values[holder] = before
            else:
                self._values.pop(holder, None)

    def __len__(self) -> int:
        """How many tasks (or threads) hold a value now."""
        return len(self._values)

    def __repr__(self) -> str:
        return f"<TaskLocal {self.name}>"
