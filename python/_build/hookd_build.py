"""hookd's PEP 517 build backend, standard library only: writes a platform
wheel holding the hookd package (src/hookd) and the hookd binary for one
platform, at hookd/bin/hookd (hookd.exe on Windows).

Which binary: config setting or environment variable
  binary   / HOOKD_WHEEL_BINARY    a hookd binary already built
  platform / HOOKD_WHEEL_PLATFORM  its platform: linux-x64, linux-arm64,
                                   darwin-x64, darwin-arm64, win32-x64, win32-arm64
  version  / HOOKD_WHEEL_VERSION   the release version (default: this checkout's,
                                   Source in internal/version/version.go)
Without a binary it runs `go build` in the repository (python/..) for this
machine, so `pip install ./python` works wherever Go does.

The release build calls it as a script, once per platform:
  python3 python/_build/hookd_build.py --binary B --platform P [--version V] --out DIR
"""

from __future__ import annotations

import argparse
import base64
import csv
import hashlib
import io
import os
import platform as host
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
PROJECT = os.path.dirname(HERE)
REPO = os.path.dirname(PROJECT)

# Our platform names (Node's, as the npm packages use) to wheel platform tags
# and Go's GOOS/GOARCH. The binary is static (CGO_ENABLED=0): one Linux wheel
# serves glibc and musl systems alike.
PLATFORMS = {
    "linux-x64": ("manylinux_2_17_x86_64.manylinux2014_x86_64.musllinux_1_1_x86_64", "linux", "amd64"),
    "linux-arm64": ("manylinux_2_17_aarch64.manylinux2014_aarch64.musllinux_1_1_aarch64", "linux", "arm64"),
    "darwin-x64": ("macosx_10_12_x86_64", "darwin", "amd64"),
    "darwin-arm64": ("macosx_11_0_arm64", "darwin", "arm64"),
    "win32-x64": ("win_amd64", "windows", "amd64"),
    "win32-arm64": ("win_arm64", "windows", "arm64"),
}

# Zip entries get this timestamp (or SOURCE_DATE_EPOCH's), so that a wheel
# depends only on its contents.
EPOCH = (1980, 1, 1, 0, 0, 0)


def _project() -> dict:
    try:
        import tomllib
    except ImportError:  # Python < 3.11
        raise RuntimeError("building the hookd wheel needs Python 3.11 or newer (tomllib)") from None
    with open(os.path.join(PROJECT, "pyproject.toml"), "rb") as f:
        return tomllib.load(f)["project"]


def source_version() -> str:
    """This checkout's version: Source in internal/version/version.go, the
    one place it is written (the binary and the npm package use it too)."""
    path = os.path.join(REPO, "internal", "version", "version.go")
    with open(path, encoding="utf-8") as f:
        m = re.search(r'^const Source = "([^"]+)"$', f.read(), re.MULTILINE)
    if not m:
        raise RuntimeError(f"no `const Source = \"...\"` line in {path}")
    return m.group(1)


def this_platform() -> str:
    machine = host.machine().lower()
    arch = {"x86_64": "x64", "amd64": "x64", "aarch64": "arm64", "arm64": "arm64"}.get(machine, machine)
    return f"{sys.platform}-{arch}"


def pep440(version: str) -> str:
    """A release version (v1.2.3, 1.2.3-dev, 1.2.3-rc.1) as Python spells it."""
    m = re.fullmatch(r"v?(\d+\.\d+\.\d+)(?:-([a-z]+)\.?(\d*))?", version)
    if not m:
        raise ValueError(f"version {version!r} is not MAJOR.MINOR.PATCH[-PRERELEASE]")
    base, pre, num = m.group(1), m.group(2), m.group(3) or "0"
    if not pre:
        return base
    return base + {"alpha": "a", "a": "a", "beta": "b", "b": "b", "rc": "rc"}.get(pre, ".dev") + num


def _metadata(project: dict, version: str) -> str:
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {project['name']}",
        f"Version: {version}",
        f"Summary: {project['description']}",
        f"License: {project['license']}",
        f"Requires-Python: {project['requires-python']}",
        f"Keywords: {','.join(project.get('keywords', []))}",
    ]
    lines += [f"Classifier: {c}" for c in project.get("classifiers", [])]
    lines += [f"Project-URL: {k}, {v}" for k, v in project.get("urls", {}).items()]
    lines.append("Description-Content-Type: text/markdown")
    with open(os.path.join(PROJECT, project["readme"]), encoding="utf-8") as f:
        readme = f.read()
    return "\n".join(lines) + "\n\n" + readme


def _date() -> tuple:
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if not epoch:
        return EPOCH
    import time
    return max(EPOCH, time.gmtime(int(epoch))[:6])


def write_wheel(out_dir: str, binary: str, plat: str, version: str = "") -> str:
    """Writes the wheel for plat with binary into out_dir; returns its path."""
    if plat not in PLATFORMS:
        raise ValueError(f"unknown platform {plat!r}: want one of {', '.join(PLATFORMS)}")
    if not os.path.isfile(binary):
        raise FileNotFoundError(f"hookd binary {binary} does not exist")
    project = _project()
    version = pep440(version or source_version())
    tag = f"py3-none-{PLATFORMS[plat][0]}"
    name = project["name"]
    dist_info = f"{name}-{version}.dist-info"
    exe = "hookd.exe" if plat.startswith("win32") else "hookd"

    files: list[tuple[str, bytes, int]] = []  # (path in the wheel, content, mode)
    src = os.path.join(PROJECT, "src", "hookd")
    for entry in sorted(os.listdir(src)):
        if entry.endswith(".py") or entry == "py.typed":
            with open(os.path.join(src, entry), "rb") as f:
                files.append((f"hookd/{entry}", f.read(), 0o644))
    with open(binary, "rb") as f:
        files.append((f"hookd/bin/{exe}", f.read(), 0o755))
    scripts = "".join(f"{k} = {v}\n" for k, v in project.get("scripts", {}).items())
    files.append((f"{dist_info}/METADATA", _metadata(project, version).encode(), 0o644))
    files.append((f"{dist_info}/WHEEL", (
        "Wheel-Version: 1.0\nGenerator: hookd_build\nRoot-Is-Purelib: false\n"
        + "".join(f"Tag: py3-none-{p}\n" for p in PLATFORMS[plat][0].split("."))).encode(), 0o644))
    files.append((f"{dist_info}/entry_points.txt", f"[console_scripts]\n{scripts}".encode(), 0o644))
    with open(os.path.join(REPO, "LICENSE"), "rb") as f:
        files.append((f"{dist_info}/LICENSE", f.read(), 0o644))

    record = io.StringIO()
    writer = csv.writer(record, lineterminator="\n")
    for path, data, _ in files:
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        writer.writerow([path, f"sha256={digest}", len(data)])
    writer.writerow([f"{dist_info}/RECORD", "", ""])
    files.append((f"{dist_info}/RECORD", record.getvalue().encode(), 0o644))

    os.makedirs(out_dir, exist_ok=True)
    wheel = os.path.join(out_dir, f"{name}-{version}-{tag}.whl")
    date = _date()
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as zf:
        for path, data, mode in files:
            info = zipfile.ZipInfo(path, date)
            info.external_attr = (0o100000 | mode) << 16  # a regular file with its mode: pip keeps the x bit
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, data)
    return wheel


def _setting(config_settings, key: str) -> str:
    value = (config_settings or {}).get(key) or os.environ.get(f"HOOKD_WHEEL_{key.upper()}", "")
    return str(value)


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    """PEP 517: the wheel for the configured binary, or for this machine."""
    binary = _setting(config_settings, "binary")
    plat = _setting(config_settings, "platform") or this_platform()
    version = _setting(config_settings, "version")
    if binary:
        return os.path.basename(write_wheel(wheel_directory, binary, plat, version))
    go = shutil.which("go")
    if go is None:
        raise RuntimeError("no hookd binary to put in the wheel: set HOOKD_WHEEL_BINARY (and HOOKD_WHEEL_PLATFORM), "
                           "or install Go so that the backend can build one")
    with tempfile.TemporaryDirectory() as tmp:
        goos, goarch = PLATFORMS[plat][1:] if plat in PLATFORMS else ("", "")
        out = os.path.join(tmp, "hookd.exe" if goos == "windows" else "hookd")
        env = dict(os.environ, CGO_ENABLED="0", GOOS=goos, GOARCH=goarch)
        cmd = [go, "build", "-trimpath", "-o", out]
        if version:  # the binary says the version the wheel is given
            cmd += ["-ldflags", "-X github.com/hookd/hookd/internal/version.Stamped=" + version.removeprefix("v")]
        subprocess.run(cmd + ["."], cwd=REPO, env=env, check=True)
        return os.path.basename(write_wheel(wheel_directory, out, plat, version))


def get_requires_for_build_wheel(config_settings=None):
    return []


def main() -> None:
    parser = argparse.ArgumentParser(description="Write a hookd platform wheel.")
    parser.add_argument("--binary", required=True, help="the hookd binary for the platform")
    parser.add_argument("--platform", required=True, choices=sorted(PLATFORMS))
    parser.add_argument("--version", default="", help="release version (default: this checkout's)")
    parser.add_argument("--out", required=True, help="folder to write the wheel to")
    args = parser.parse_args()
    print(write_wheel(args.out, args.binary, args.platform, args.version))


if __name__ == "__main__":
    main()
