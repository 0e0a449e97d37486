"""Process names that say where a process runs, so a process can tell that another one on its own
host has died (its process is gone) without waiting for the dead one's leases to lapse: the gate
slots of an API or worker process, and the batch claims of each worker loop.

A name is `host|pid-namespace|pid|token`, and a worker loop's `host|pid-namespace|pid|token.loop`.
Only a name with our host and PID namespace is ever judged, and only "no such process" counts as
dead: a reused PID just means waiting for the lease, never taking a live process's slot or claim.
"""

from __future__ import annotations

import os
import secrets
import socket
from collections.abc import Iterable

_SEP = "|"


def _pid_namespace() -> str:
    try:
        return str(os.stat("/proc/self/ns/pid").st_ino)
    except OSError:
        return ""  # not Linux: no judging, leases only


def process_name() -> str:
    """A new name for this process (a restarted process gets a different one)."""
    return _SEP.join(
        (socket.gethostname(), _pid_namespace(), str(os.getpid()), secrets.token_hex(4))
    )


def loop_name(process: str, loop: int) -> str:
    return f"{process}.{loop}"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def dead_local(names: Iterable[str]) -> list[str]:
    """The names among NAMES of processes that ran on this host, in this PID namespace, and no
    longer exist."""
    namespace = _pid_namespace()
    if not namespace:
        return []
    host, me = socket.gethostname(), os.getpid()
    dead = []
    for name in names:
        parts = name.split(_SEP)
        if len(parts) != 4 or parts[0] != host or parts[1] != namespace:
            continue
        if not parts[2].isdigit() or int(parts[2]) == me:
            continue
        if not _alive(int(parts[2])):
            dead.append(name)
    return dead
