"""`hookd` for pip users (and `python -m hookd`): runs the binary this package
carries with the same arguments, stdio and exit code."""

from __future__ import annotations

import os
import subprocess
import sys

from ._binary import find_hookd


def main() -> None:
    try:
        bin = find_hookd()
    except FileNotFoundError as err:
        print(f"hookd: {err}", file=sys.stderr)
        sys.exit(1)
    if sys.platform == "win32":
        sys.exit(subprocess.call([bin, *sys.argv[1:]]))
    os.execv(bin, [bin, *sys.argv[1:]])


if __name__ == "__main__":
    main()
