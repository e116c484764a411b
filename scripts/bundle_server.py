#!/usr/bin/env python3
"""Bundle the language server into the VS Code extension: wheels for an offline install.

    python scripts/bundle_server.py [--target linux-x64] [--out vscode-client/bundled]
    python scripts/bundle_server.py --lock      # refresh vscode-client/server-requirements.txt

Writes `<out>/wheels/` (the evalsubmit wheel built from this checkout, every dependency pinned
in `vscode-client/server-requirements.txt` for each supported CPython of the target platform,
and pip's own wheel) and `<out>/manifest.json`. On first start the extension creates a private
venv from the user's Python and installs these wheels into it with
`python <pip wheel>/pip install --no-index --find-links <out>/wheels evalsubmit==<version>`.

Wheels come from PyPI (`pip download --only-binary=:all: --platform ... --python-version ...`),
cached in `.cache/bundle-wheels/<target>/`; a stamp keyed by the lock, the Python versions and the
platform tags makes later builds offline. Only the standard library is needed to run this file;
pip and uv come from the project's `.venv` (`make setup`).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CLIENT = ROOT / "vscode-client"
LOCK = CLIENT / "server-requirements.txt"
CACHE = ROOT / ".cache" / "bundle-wheels"
PIP_VERSION = "26.3"
#: CPython versions whose binary wheels (pydantic-core, PyYAML) go into the .vsix.
PYTHONS = ("3.11", "3.12", "3.13", "3.14", "3.15")
#: VS Code target platform -> pip platform tags accepted for it.
TARGETS: dict[str, tuple[str, ...]] = {
    "linux-x64": ("manylinux_2_17_x86_64", "manylinux2014_x86_64", "manylinux_2_28_x86_64"),
    "linux-arm64": ("manylinux_2_17_aarch64", "manylinux2014_aarch64", "manylinux_2_28_aarch64"),
    "alpine-x64": ("musllinux_1_1_x86_64", "musllinux_1_2_x86_64"),
    "darwin-x64": ("macosx_10_12_x86_64", "macosx_10_13_x86_64", "macosx_11_0_x86_64"),
    "darwin-arm64": ("macosx_11_0_arm64", "macosx_10_12_universal2"),
    "win32-x64": ("win_amd64",),
}
#: Dependencies that ship compiled code: one wheel per CPython version must be present.
BINARY = ("pydantic_core", "pyyaml")


def host_target() -> str:
    machine = platform.machine().lower()
    arch = "arm64" if machine in ("arm64", "aarch64") else "x64"
    system = {"linux": "linux", "darwin": "darwin", "win32": "win32"}.get(sys.platform, "linux")
    if system == "linux" and Path("/etc/alpine-release").exists():
        system = "alpine"
    return f"{system}-{arch}"


def tool(name: str) -> list[str]:
    """`pip` / `uv` of the project venv (make setup), else of this Python."""
    venv_bin = ROOT / ".venv" / ("Scripts" if os.name == "nt" else "bin")
    if name == "uv":
        exe = venv_bin / ("uv.exe" if os.name == "nt" else "uv")
        return [str(exe)] if exe.exists() else ["uv"]
    python = venv_bin / ("python.exe" if os.name == "nt" else "python")
    return [str(python) if python.exists() else sys.executable, "-m", "pip"]


def run(cmd: list[str], **kwargs: object) -> None:
    env = {
        **os.environ,
        "UV_CACHE_DIR": str(ROOT / ".cache" / "uv"),
        "PIP_CACHE_DIR": str(ROOT / ".cache" / "pip"),
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
    }
    subprocess.run(cmd, check=True, env=env, **kwargs)  # type: ignore[call-overload]


def write_lock() -> None:
    """Pin the server's dependencies (not evalsubmit itself) for every supported Python."""
    run(
        [
            *tool("uv"),
            "pip",
            "compile",
            str(ROOT / "pyproject.toml"),
            "--universal",
            "--python-version",
            PYTHONS[0],
            "--no-header",
            "--no-annotate",
            "--quiet",
            "-o",
            str(LOCK),
        ]
    )
    print(f"wrote {LOCK.relative_to(ROOT)}")


def lock_lines() -> list[str]:
    if not LOCK.exists():
        sys.exit(f"{LOCK} is missing: run `python {Path(__file__).name} --lock`")
    lines = [ln.strip() for ln in LOCK.read_text().splitlines()]
    return [ln for ln in lines if ln and not ln.startswith("#")]


def download(target: str) -> Path:
    """The cached folder holding every wheel the target needs (downloaded once)."""
    tags = TARGETS[target]
    requirements = [*lock_lines(), f"pip=={PIP_VERSION}"]
    key = hashlib.sha256(json.dumps([requirements, PYTHONS, tags]).encode()).hexdigest()[:16]
    folder = CACHE / target / key
    stamp = folder / ".complete"
    if stamp.exists():
        return folder
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as req:
        req.write("\n".join(requirements) + "\n")
    try:
        for version in PYTHONS:
            abi = "cp" + version.replace(".", "")
            print(f"bundle: wheels for CPython {version} on {target}", flush=True)
            platforms = [arg for tag in tags for arg in ("--platform", tag)]
            run(
                [
                    *tool("pip"),
                    "download",
                    "--quiet",
                    "--no-deps",
                    "--only-binary=:all:",
                    *platforms,
                    "--python-version",
                    version,
                    "--implementation",
                    "cp",
                    "--abi",
                    abi,
                    "--abi",
                    "abi3",
                    "--abi",
                    "none",
                    "-r",
                    req.name,
                    "-d",
                    str(folder),
                ]
            )
    finally:
        os.unlink(req.name)
    missing = [
        f"{name} for CPython {version}"
        for version in PYTHONS
        for name in BINARY
        if not any(
            w.name.lower().startswith(f"{name}-") and f"-cp{version.replace('.', '')}-" in w.name
            for w in folder.glob("*.whl")
        )
    ]
    if missing:
        sys.exit(f"bundle: no wheel on PyPI for {', '.join(missing)} ({target})")
    stamp.write_text(key + "\n")
    return folder


def build_server_wheel(into: Path) -> Path:
    run([*tool("uv"), "build", "--wheel", "--quiet", "--out-dir", str(into), str(ROOT)])
    wheels = sorted(into.glob("evalsubmit-*.whl"))
    if len(wheels) != 1:
        sys.exit(f"bundle: expected one evalsubmit wheel, found {[w.name for w in wheels]}")
    return wheels[0]


def bundle(target: str, out: Path) -> dict[str, object]:
    cached = download(target)
    wheels = out / "wheels"
    shutil.rmtree(out, ignore_errors=True)
    wheels.mkdir(parents=True)
    for wheel in cached.glob("*.whl"):
        shutil.copy2(wheel, wheels / wheel.name)
    with tempfile.TemporaryDirectory() as tmp:
        server = build_server_wheel(Path(tmp))
        shutil.copy2(server, wheels / server.name)
    version = server.name.split("-")[1]
    digest = hashlib.sha256()
    for wheel in sorted(wheels.glob("*.whl")):
        digest.update(wheel.name.encode())
        digest.update(hashlib.sha256(wheel.read_bytes()).digest())
    pip_wheel = next(w.name for w in wheels.glob("pip-*.whl"))
    manifest: dict[str, object] = {
        "evalsubmit": version,
        "requirement": f"evalsubmit=={version}",
        "target": target,
        "pythons": list(PYTHONS),
        "pip": pip_wheel,
        "id": digest.hexdigest()[:16],
    }
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    size = sum(w.stat().st_size for w in wheels.glob("*.whl")) / 1e6
    count = len(list(wheels.glob("*.whl")))
    print(f"bundle: {count} wheels, {size:.1f} MB, for {target}, CPython {', '.join(PYTHONS)}")
    return manifest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--target",
        default=os.environ.get("EVALSUBMIT_VSIX_TARGET") or host_target(),
        choices=sorted(TARGETS),
    )
    parser.add_argument("--out", type=Path, default=CLIENT / "bundled")
    parser.add_argument("--lock", action="store_true", help="refresh the pinned requirements")
    args = parser.parse_args(argv)
    if args.lock:
        write_lock()
        return 0
    bundle(args.target, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
