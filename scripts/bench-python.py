#!/usr/bin/env python3
"""Speed of the Python package (a benchmark, not a test): run it with the wheel installed.

    python scripts/bench-python.py [--wheel PATH]

Measures, in this order:
- `python -c "import discloser"` over bare `python -c pass`: the median of 30 runs of each,
  fresh processes, so the difference is what the import adds to start-up;
- rendering the bundled example's index in-process after loading (`Catalog.index()`), the
  median of 2,000 calls;
- `discloser.count_tokens` against tiktoken's `encode_ordinary` on the same ~5 MB of real tool
  text (the shared corpora's tool files, else the bundled example repeated), in one process,
  after one warm-up each; the counts must be identical (checked), and the batch form over the
  same text cut into one string per file;
- the wheel's size, with `--wheel`.

tiktoken (optional: `pip install tiktoken`) is run offline: its `o200k_base` vocabulary is the
copy shipped in the tiktoken-rs crate (found in the cargo registry), placed where tiktoken's
cache looks for it, so nothing is downloaded.
"""

from __future__ import annotations

import glob
import hashlib
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import discloser

ROOT = Path(__file__).resolve().parents[1]
O200K_URL = "https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken"


def startup(code: str, runs: int = 30) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def texts() -> list:
    corpora = Path(os.environ.get("DISCLOSER_SHARED", ROOT.parent / "shared")) / "corpora"
    files = sorted(p for p in corpora.rglob("*") if p.suffix in (".json", ".snap", ".yaml") and p.name not in ("analysis.json", "servers_meta.json")) if corpora.is_dir() else []
    if not files:
        files = sorted((ROOT / "tools").glob("*.yaml")) * 400
    out, size = [], 0
    while size < 5_000_000:
        for f in files:
            text = f.read_text(encoding="utf-8", errors="replace")
            out.append(text)
            size += len(text.encode())
            if size >= 5_000_000:
                break
    return out


def tiktoken_encoding():
    try:
        import tiktoken
    except ImportError:
        return None
    assets = glob.glob(os.path.expanduser("~/.cargo/registry/src/*/tiktoken-rs-*/assets/o200k_base.tiktoken"))
    if assets:
        cache = tempfile.mkdtemp()
        shutil.copy(assets[0], os.path.join(cache, hashlib.sha1(O200K_URL.encode()).hexdigest()))
        os.environ["TIKTOKEN_CACHE_DIR"] = cache
    return tiktoken.get_encoding("o200k_base")


def best(f, runs: int = 3) -> float:
    f()
    return min(timed(f) for _ in range(runs))


def timed(f) -> float:
    started = time.perf_counter()
    f()
    return time.perf_counter() - started


def main() -> None:
    bare = startup("pass")
    imported = startup("import discloser")
    print(f"import discloser: +{(imported - bare) * 1000:.1f} ms over bare python ({bare * 1000:.1f} -> {imported * 1000:.1f} ms, median of 30)")

    catalog = discloser.Catalog.from_config(ROOT / "discloser.yaml")
    catalog.index()
    times = []
    for _ in range(2000):
        started = time.perf_counter()
        catalog.index()
        times.append(time.perf_counter() - started)
    print(f"render the example's index in-process: {statistics.median(times) * 1e6:.1f} µs (median of 2,000)")

    chunks = texts()
    text = "".join(chunks)
    mb = len(text.encode()) / 1e6
    ours = discloser.count_tokens(text)
    t_ours = best(lambda: discloser.count_tokens(text))
    t_batch = best(lambda: discloser.count_tokens_batch(chunks))
    assert sum(discloser.count_tokens_batch(chunks)) == sum(discloser.count_tokens(c) for c in chunks)
    print(f"count_tokens: {mb:.1f} MB, {ours:,} tokens in {t_ours * 1000:.0f} ms; batch of {len(chunks)} strings {t_batch * 1000:.0f} ms")
    enc = tiktoken_encoding()
    if enc is None:
        print("tiktoken not installed: no ratio")
    else:
        theirs = len(enc.encode_ordinary(text))
        t_theirs = best(lambda: enc.encode_ordinary(text))
        assert theirs == ours, (theirs, ours)
        batch = [len(x) for x in enc.encode_ordinary_batch(chunks)]
        assert batch == discloser.count_tokens_batch(chunks)
        t_theirs_batch = best(lambda: enc.encode_ordinary_batch(chunks))
        print(f"tiktoken encode_ordinary: {theirs:,} tokens (identical) in {t_theirs * 1000:.0f} ms: discloser is {t_theirs / t_ours:.1f}x as fast")
        print(f"tiktoken encode_ordinary_batch: {t_theirs_batch * 1000:.0f} ms: discloser's batch is {t_theirs_batch / t_batch:.1f}x as fast")
    if "--wheel" in sys.argv:
        wheel = Path(sys.argv[sys.argv.index("--wheel") + 1])
        print(f"wheel: {wheel.name}, {wheel.stat().st_size / 1e6:.2f} MB")
    print(f"({os.cpu_count()} CPUs)")


if __name__ == "__main__":
    main()
