#!/usr/bin/env python3
"""Build Attention Bench's static site into site/, serve it, or measure it.

    python build.py                  build into site/
    python build.py serve [--port N] build, then serve on http://127.0.0.1:N/
    python build.py benchmark        print build time and page weight against the targets
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from sitebuild.errors import BuildError
from sitebuild.serve import make_server
from sitebuild.site import ROOT, build


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the process exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", nargs="?", default="build", choices=["build", "serve", "benchmark"])
    parser.add_argument("--out", type=Path, default=ROOT / "site", help="output folder")
    parser.add_argument("--port", type=int, default=8000, help="port for serve")
    parser.add_argument("--no-browser", action="store_true",
                        help="benchmark: skip the measurements made in headless Chromium")
    parser.add_argument("--cdn", action="store_true",
                        help="load Pyodide from the official CDN instead of shipping it")
    args = parser.parse_args(argv)
    if args.command == "benchmark":
        from sitebuild.benchmark import main as benchmark

        return benchmark(browser=not args.no_browser)
    start = time.perf_counter()
    try:
        pages = build(args.out, cdn=args.cdn)
    except BuildError as exc:
        print(f"build failed: {exc}", file=sys.stderr)
        return 1
    print(f"built {len(pages)} pages into {args.out} in {time.perf_counter() - start:.2f} s")
    if args.command == "serve":
        server = make_server(args.out, args.port)
        print(f"serving on http://127.0.0.1:{server.server_port}/ (Ctrl-C to stop)")
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
        finally:
            server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
