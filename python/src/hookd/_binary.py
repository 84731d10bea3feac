"""Where the hookd binary is: the one this package's platform wheel carries."""

from __future__ import annotations

import os
import sys
from typing import Mapping, Optional

EXE = "hookd.exe" if sys.platform == "win32" else "hookd"


def bundled_hookd() -> str:
    """The path a platform wheel puts the binary at (it may not exist)."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", EXE)


def _on_path(path: str) -> Optional[str]:
    """hookd in the first absolute PATH entry that holds it as an executable
    file. An empty entry ("::", a leading or trailing separator) or a
    relative one names the working folder, where a repository could have
    planted a ./hookd: those entries are skipped, as Go's exec.LookPath
    refuses a result found through them."""
    for entry in path.split(os.pathsep):
        if not entry or not os.path.isabs(entry):
            continue
        candidate = os.path.join(entry, EXE)
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return None


def find_hookd(env: Optional[Mapping[str, str]] = None) -> str:
    """Finds the hookd binary: $HOOKD_PATH when set, else the binary in this
    package (platform wheels carry it), else hookd in an absolute PATH entry
    (never the working folder through an empty or relative entry). Raises
    FileNotFoundError naming each place it looked."""
    env = os.environ if env is None else env
    override = env.get("HOOKD_PATH")
    if override:
        if not os.path.isfile(override):
            raise FileNotFoundError(f"HOOKD_PATH is {override}, which is not a file")
        return override
    bundled = bundled_hookd()
    if os.path.isfile(bundled):
        return bundled
    on_path = _on_path(env.get("PATH") or "")
    if on_path:
        return on_path
    raise FileNotFoundError(
        f"cannot find the hookd binary: HOOKD_PATH is not set; {bundled} does not exist "
        f"(this hookd package was not installed from a platform wheel); no {EXE} on PATH. "
        "Install a platform wheel of hookd, or set HOOKD_PATH to a hookd binary.")
