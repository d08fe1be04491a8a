"""The site's HTTP headers, written once and used three ways.

`headers_for` says what every response carries: the Content-Security-Policy (which, as a
header, also governs the Web Worker that runs Python: a `<meta>` policy does not), two
security headers, a Cache-Control by kind of file, and the Content-Type. From the same rules
the build writes `site/_headers` (read by Netlify and Cloudflare Pages) and `site/_nginx.conf`
(a snippet for nginx), and `build.py serve` answers every request with the headers that
`site/_headers` gives it, exactly as those hosts would.

Each header is set by exactly one matching rule for any path: Netlify lets a later rule win
while Cloudflare Pages joins the values of one header with commas, so overlapping rules would
mean different headers on the two hosts.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass
from pathlib import Path

HEADERS_FILE = "_headers"
NGINX_FILE = "_nginx.conf"
IMMUTABLE = "public, max-age=31536000, immutable"  # content-hashed or versioned: never changes
REVALIDATE = "no-cache"  # pages, sw.js and other fixed names: ask the server each time
IMMUTABLE_DIRS = ("static", "data", "py", "runtime")  # hashed names, hashed folder, version
SECURITY = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
}  # no X-Frame-Options or frame-ancestors: teachers embed the pages in course sites
MIME = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".json": "application/json",
    ".wasm": "application/wasm",  # any other type makes loadPyodide() hang instead of failing
    ".svg": "image/svg+xml",
    ".whl": "application/zip",
    ".zip": "application/zip",
    ".txt": "text/plain; charset=utf-8",
    ".conf": "text/plain; charset=utf-8",
    ".gz": "application/gzip",
    ".br": "application/octet-stream",
}
DEFAULT_TYPE = "application/octet-stream"
HOSTS_KNOW = (".html", ".css", ".js", ".json", ".svg")  # types every host already sends right


def csp(extra_origin: str = "") -> str:
    """Return the Content Security Policy: nothing from elsewhere, no inline code.

    >>> "script-src 'self' 'wasm-unsafe-eval';" in csp()
    True
    >>> "connect-src 'self' https://cdn.example;" in csp("https://cdn.example")
    True
    """
    extra = " " + extra_origin if extra_origin else ""
    return ("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'" + extra + "; "
            "worker-src 'self'; connect-src 'self'" + extra + "; style-src 'self'; "
            "img-src 'self' blob:; font-src 'self'; frame-src 'self'; object-src 'none'; "
            "base-uri 'self'; form-action 'none'")


def cache_control(path: str) -> str:
    """Return the Cache-Control for a URL path below the site root.

    >>> cache_control("static/js/page.0123456789.js"), cache_control("roles/")
    ('public, max-age=31536000, immutable', 'no-cache')
    >>> cache_control("runtime/0.27.7/pyodide.asm.wasm"), cache_control("sw.js")
    ('public, max-age=31536000, immutable', 'no-cache')
    """
    return IMMUTABLE if path.lstrip("/").split("/", 1)[0] in IMMUTABLE_DIRS else REVALIDATE


def content_type(path: str) -> str:
    """Return the Content-Type for a file name.

    >>> content_type("runtime/0.27.7/pyodide.mjs"), content_type("a.asm.wasm")
    ('text/javascript; charset=utf-8', 'application/wasm')
    >>> content_type("roles/"), content_type("LICENSE")
    ('text/html; charset=utf-8', 'application/octet-stream')
    """
    if path.endswith("/") or not path:
        path += "index.html"
    return MIME.get(posixpath.splitext(path)[1].lower(), DEFAULT_TYPE)


def headers_for(path: str, policy: str) -> dict[str, str]:
    """Return every header (but the transport ones) that a response for path carries."""
    return {"Content-Security-Policy": policy, **SECURITY,
            "Cache-Control": cache_control(path), "Content-Type": content_type(path)}


@dataclass(frozen=True)
class Rule:
    """One block of a _headers file: a URL pattern and the headers it adds."""

    pattern: str  # "/roles/*" (a trailing splat) or an exact path such as "/sw.js"
    headers: tuple[tuple[str, str], ...]

    def matches(self, url_path: str) -> bool:
        """Say whether a request path (starting with "/") falls under this rule.

        >>> Rule("/static/*", ()).matches("/static/js/a.js"), Rule("/sw.js", ()).matches("/sw.jsx")
        (True, False)
        """
        if self.pattern.endswith("*"):
            return url_path.startswith(self.pattern[:-1])
        return url_path == self.pattern


def _top_level(site: Path) -> list[Path]:
    """Return the site's top-level entries a reader may ask for (no dotfiles, no host files)."""
    return [p for p in sorted(site.iterdir())
            if not p.name.startswith((".", "_")) and not p.name.endswith((".gz", ".br"))]


def site_rules(site: Path, policy: str) -> list[Rule]:
    """Return the header rules for a built site, one rule per header for every path."""
    rules = [Rule("/*", (("Content-Security-Policy", policy), *SECURITY.items()))]
    for entry in _top_level(site):
        pattern = f"/{entry.name}/*" if entry.is_dir() else f"/{entry.name}"
        patterns = ["/", pattern] if entry.name == "index.html" else [pattern]
        rules += [Rule(p, (("Cache-Control", cache_control(entry.name)),)) for p in patterns]
    for path in sorted(site.rglob("*")):
        rel = path.relative_to(site).as_posix()
        if path.is_file() and path.suffix in MIME and path.suffix not in HOSTS_KNOW \
                and not rel.startswith((".", "_")) and path.suffix not in (".gz", ".br"):
            rules.append(Rule(f"/{rel}", (("Content-Type", content_type(rel)),)))
    return rules


def render(rules: list[Rule]) -> str:
    """Write rules in the _headers format of Netlify and Cloudflare Pages."""
    lines = ["# HTTP headers for Netlify and Cloudflare Pages, written by build.py from",
             "# sitebuild/headers.py; `build.py serve` sends exactly these. See README, Deploy."]
    for rule in rules:
        lines.append(rule.pattern)
        lines += [f"  {name}: {value}" for name, value in rule.headers]
    return "\n".join(lines) + "\n"


def parse(text: str) -> list[Rule]:
    """Read a _headers file back into rules.

    >>> for rule in parse("# note\\n/*\\n  A: 1\\n  B: x: y\\n/sw.js\\n  C: 2\\n"):
    ...     print(rule.pattern, rule.headers)
    /* (('A', '1'), ('B', 'x: y'))
    /sw.js (('C', '2'),)
    """
    rules: list[tuple[str, list]] = []
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if not line[0].isspace():
            rules.append((line.strip(), []))
        elif rules and ":" in line:
            name, value = line.strip().split(":", 1)
            rules[-1][1].append((name.strip(), value.strip()))
    return [Rule(pattern, tuple(headers)) for pattern, headers in rules]


def match(rules: list[Rule], url_path: str) -> dict[str, str]:
    """Return the headers rules give a request path, as Cloudflare Pages combines them."""
    out: dict[str, str] = {}
    for rule in rules:
        if rule.matches(url_path):
            for name, value in rule.headers:
                out[name] = f"{out[name]}, {value}" if name in out else value
    return out


def nginx(site: Path, policy: str) -> str:
    """Return an nginx snippet that sends the same headers and the precompressed files."""
    types = {}
    for ext, mime in MIME.items():
        if ext not in (".gz", ".br", ".conf"):
            types.setdefault(mime.split(";")[0], []).append(ext[1:])

    def block(location: str, path: str, extra: str = "") -> list[str]:
        heads = {k: v for k, v in headers_for(path, policy).items() if k != "Content-Type"}
        return ([f"location {location} {{"]
                + [f'    add_header {k} "{v}" always;' for k, v in heads.items()]
                + ([f"    {extra}"] if extra else []) + ["}"])

    lines = [
        "# nginx settings for this built Attention Bench site, written by build.py from",
        "# sitebuild/headers.py (the same rules as _headers). Include it inside the server block",
        "# that serves this folder at the root of a host name, for example:",
        "#     server {",
        "#         listen 443 ssl; server_name bench.example.org;",
        "#         root /srv/attention-bench/site;",
        "#         include /srv/attention-bench/site/_nginx.conf;",
        "#     }",
        "# add_header is inherited only by a block that has none of its own: so each location",
        "# repeats every header, with `always` so that error responses carry them too.",
        "index index.html;",
        "charset utf-8;",
        "charset_types text/css text/javascript application/json image/svg+xml;",
        "# The site's own types, replacing mime.types here: .wasm must be application/wasm.",
        "types {",
        *[f"    {mime} {' '.join(exts)};" for mime, exts in types.items()],
        "}",
        "default_type application/octet-stream;",
        "# Send foo.wasm.gz for foo.wasm to a browser that accepts gzip (the build writes the .gz",
        "# files); with the ngx_brotli module, `brotli_static on;` sends the .br files as well.",
        "gzip_static on;",
        "gzip_vary on;",
        *block("/", "index.html", "try_files $uri $uri/ =404;"),
    ]
    for folder in IMMUTABLE_DIRS:
        if (site / folder).is_dir():
            lines += block(f"^~ /{folder}/", f"{folder}/x")
    lines += ["location ~ ^/(_headers|_nginx\\.conf|\\.) {", "    return 404;", "}"]
    if (site / "404.html").is_file():
        lines.append("error_page 404 /404.html;")
    return "\n".join(lines) + "\n"


def write_rules(site: Path, policy: str) -> None:
    """Write site/_headers and site/_nginx.conf for the files now in site."""
    (site / HEADERS_FILE).write_text(render(site_rules(site, policy)), encoding="utf-8")
    (site / NGINX_FILE).write_text(nginx(site, policy), encoding="utf-8")


def load_rules(site: Path) -> list[Rule]:
    """Return the rules a built site's _headers gives ([] for a folder without one)."""
    try:
        return parse((site / HEADERS_FILE).read_text(encoding="utf-8"))
    except OSError:
        return []
