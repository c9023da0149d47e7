"""A real filesystem that fills up or is read-only, for tests of storage trouble.

    from tests.fsfault import small_disk  # noqa: F401  (registers the fixture)

    def test_something(small_disk, server_factory):
        srv = server_factory(data_dir=small_disk.path)   # the server's data folder on it
        small_disk.fill()      # every further write fails with ENOSPC (disk full)
        small_disk.free()      # room again
        small_disk.read_only() # remount read-only (only when no file on it is open for writing)
        small_disk.writable()

``small_disk`` mounts a tmpfs of a few MiB (``size``) on a fresh folder and unmounts it at the end.
Mounting needs root (CI runs the tests as root); without it, the tests that use the fixture
are skipped, saying why. A read-only remount is refused by the kernel (EBUSY) while a file on
the mount is open for writing, e.g. a running server's SQLite database: for a database that
breaks under a running server use :meth:`SmallDisk.fill`; ``read_only`` is for start-up tests.
"""
from __future__ import annotations

import errno
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.services import missing


FILLER = ".filler"


def _mount(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["mount", *args], capture_output=True, text=True)


@dataclass
class SmallDisk:
    path: Path
    size_mib: int

    def fill(self) -> None:
        """Take every free byte: writes on the disk fail with ENOSPC until :meth:`free`."""
        fd = os.open(self.path / FILLER, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        try:
            size = 1024 * 1024
            while size >= 1:  # big chunks first, then ever smaller ones for what is left
                try:
                    os.write(fd, b"\0" * size)
                except OSError as err:
                    if err.errno != errno.ENOSPC:
                        raise
                    size //= 2
        finally:
            os.close(fd)

    def free(self) -> None:
        (self.path / FILLER).unlink(missing_ok=True)

    def read_only(self) -> None:
        done = _mount("-o", "remount,ro", str(self.path))
        if done.returncode != 0:
            raise RuntimeError(f"could not remount {self.path} read-only: {done.stderr.strip()}")

    def writable(self) -> None:
        done = _mount("-o", "remount,rw", str(self.path))
        if done.returncode != 0:
            raise RuntimeError(f"could not remount {self.path} writable: {done.stderr.strip()}")

    def free_bytes(self) -> int:
        stat = os.statvfs(self.path)
        return stat.f_bavail * stat.f_frsize


def mount_small_disk(size_mib: int = 8) -> SmallDisk:
    if os.geteuid() != 0 or shutil.which("mount") is None:
        missing("a tmpfs for storage-failure tests needs root and mount(8)")
    path = Path(tempfile.mkdtemp(prefix="korchma-disk-"))
    done = _mount("-t", "tmpfs", "-o", f"size={size_mib}m,mode=0755", "tmpfs", str(path))
    if done.returncode != 0:
        shutil.rmtree(path, ignore_errors=True)
        missing(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    return SmallDisk(path=path, size_mib=size_mib)


def unmount(disk: SmallDisk) -> None:
    subprocess.run(["umount", "-l", str(disk.path)], capture_output=True)
    shutil.rmtree(disk.path, ignore_errors=True)


@pytest.fixture
def small_disk():
    """A tmpfs of 8 MiB on a fresh folder (see the module's text)."""
    disk = mount_small_disk()
    try:
        yield disk
    finally:
        unmount(disk)
