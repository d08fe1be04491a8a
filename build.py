#!/usr/bin/env python3
"""Build Attention Bench's static site into site/, serve it, or measure it.

    python build.py                  build into site/ (--base /repo/: served under that path)
    python build.py serve [--port N] build, then serve on http://127.0.0.1:N/
    python build.py benchmark        print build time and page weight against the targets
    python build.py fragment ID [--url "query=grid"] [--output FILE] [--theme light|dark|auto]
                                [--lang LANG]
                                     write one figure's static HTML with its own scoped styles
                                     (for pages without frames; --no-css leaves the styles out),
                                     in one of the catalog's languages (en, zh, ar: --lang)
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from sitebuild import embeds
from sitebuild.errors import BuildError
from sitebuild.serve import make_server
from sitebuild.site import ROOT, build
from sitebuild.strings import PSEUDO, SOURCE, languages


def _fragment(args) -> int:
    """Write one figure's static HTML to a file or to standard output."""
    from sitebuild.fragment import fragment

    try:
        html = fragment(args.figure or "", args.url, args.site_url, not args.no_css, theme=args.theme,
                        lang=args.lang)
    except BuildError as exc:
        print(f"fragment failed: {exc}", file=sys.stderr)
        return 1
    if args.output:
        args.output.write_text(html, encoding="utf-8")
        print(f"wrote {args.figure} to {args.output}")
    else:
        sys.stdout.write(html)
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the process exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", nargs="?", default="build",
                        choices=["build", "serve", "benchmark", "fragment"])
    parser.add_argument("figure", nargs="?", help="fragment: the figure's embed ID (its number in lower case, as "
                        "the embed guide lists them)")
    parser.add_argument("--url", default="", help="fragment: URL parameters of the state")
    parser.add_argument("--output", type=Path, help="fragment: file to write (default: stdout)")
    parser.add_argument("--no-css", action="store_true",
                        help="fragment: leave out the scoped stylesheet (the host page styles it)")
    parser.add_argument("--css", action="store_true", help=argparse.SUPPRESS)  # the old switch: now the default
    parser.add_argument("--theme", choices=["light", "dark", "auto"], default="light",
                        help="fragment: colours (auto follows the reader's system setting)")
    parser.add_argument("--site-url", default="", help="fragment: the site's address, for links")
    parser.add_argument("--out", type=Path, default=ROOT / "site", help="output folder")
    parser.add_argument("--port", type=int, default=8000, help="port for serve")
    parser.add_argument("--no-browser", action="store_true",
                        help="benchmark: skip the measurements made in headless Chromium")
    parser.add_argument("--base", default="/",
                        help="the URL path the site is served under, e.g. /repo/ on GitHub Pages "
                             "(the 404 page's links start there)")
    parser.add_argument("--cdn", action="store_true",
                        help="load Pyodide from the official CDN instead of shipping it")
    # one option, two meanings: the root's language for a build, the fragment's for fragment
    built, spoken = [SOURCE, *PSEUDO], languages()
    parser.add_argument("--lang", default=SOURCE,
                        help=f"build: the language of the site's short strings: {SOURCE}, or a pseudo-locale that "
                             "tests layouts (en-XA: accented and 40%% longer; ar-XB: right to left); fragment: its "
                             f"language, one of the catalog's ({', '.join(spoken)})")
    args = parser.parse_args(argv)
    choices = spoken if args.command == "fragment" else built
    if args.lang not in choices:
        parser.error(f"argument --lang: invalid choice: {args.lang!r} for {args.command} "
                     f"(choose from {', '.join(choices)})")
    if args.command == "fragment":
        return _fragment(args)
    if args.command == "benchmark":
        from sitebuild.benchmark import main as benchmark

        return benchmark(browser=not args.no_browser)
    start = time.perf_counter()
    try:
        pages = build(args.out, cdn=args.cdn, base=args.base, lang=args.lang)
    except BuildError as exc:
        print(f"build failed: {exc}", file=sys.stderr)
        return 1
    print(f"built {len(pages)} pages into {args.out} in {time.perf_counter() - start:.2f} s")
    for embed_id in embeds.unmeasured():  # a new figure: its snippet is as tall as the tallest
        print(f"note: embed/{embed_id}/ has no measured height yet: run tools/measure-embed-heights")
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
