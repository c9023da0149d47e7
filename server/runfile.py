"""The run file: a running server's process id and ports, in its data folder, for `korchma status`.

Written when the server is ready (beside the READY line) and removed when it stops, so a command
given the same ``--config``/``--data-dir`` finds the server that uses that data, whatever ports
it took (0 = any free port). A server killed with -9 leaves it behind; :func:`read` tells that
from a live one by its process id.
"""
from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import Any

from .startup import StartupError

NAME = "korchma.run"
log = logging.getLogger("korchma")


def path(data_dir: Path) -> Path:
    return data_dir / NAME


def write(data_dir: Path, **ports: Any) -> None:
    """Replace the run file in one step (a reader never sees half of it). A server that cannot
    write it still serves; only `korchma status` will not find it, which the log says."""
    info = {"pid": os.getpid(), **ports}
    target = path(data_dir)
    part = target.with_name(f".{NAME}.{os.getpid()}")
    try:
        part.write_text(json.dumps(info) + "\n", encoding="utf-8")
        os.replace(part, target)
    except OSError as err:
        log.warning("run file %s not written (%s): korchma status will not find this server", target,
                    err.strerror or err)


def remove(data_dir: Path) -> None:
    """Remove the run file if it is this process's (a second server on the same data keeps its own)."""
    target = path(data_dir)
    try:
        if json.loads(target.read_text(encoding="utf-8")).get("pid") == os.getpid():
            target.unlink()
    except (OSError, ValueError, AttributeError):
        pass


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # somebody else's process: alive
        return True
    return not _zombie(pid)


def _zombie(pid: int) -> bool:
    """Exited, not yet reaped by its parent (Linux's /proc; elsewhere: not known, so no)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[-1].split()[:1] == ["Z"]


def read(data_dir: Path) -> dict[str, Any]:
    """The running server's run file; StartupError (one line) if no server runs on this data."""
    target = path(data_dir)
    try:
        info = json.loads(target.read_text(encoding="utf-8"))
        pid = int(info["pid"])
    except FileNotFoundError:
        raise StartupError(f"no server is running on data folder {data_dir} (no {target}); start it with "
                           f"`korchma serve`, or give the same --config/--data-dir as the server") from None
    except (OSError, ValueError, KeyError, TypeError) as err:
        raise StartupError(f"run file {target} cannot be read ({err}); is a server running?") from None
    if not alive(pid):
        raise StartupError(f"no server is running on data folder {data_dir}: process {pid} of {target} is gone "
                           f"(stopped without cleaning up)")
    return info
