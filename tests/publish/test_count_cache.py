"""The count cache: exact round trips, signed (a forgery is not trusted), a folder of its own, never fatal."""
import errno
import hashlib
import hmac
import json
import os
import stat
import subprocess
import sys
import time
from fractions import Fraction

import numpy as np
import pytest

from analyzer.publish import count_cache
from analyzer.publish.count_cache import Unusable, cache_key, load, open_folder, store


def sample_arrays(seed: int = 0, rows: int = 5000) -> dict:
    rng = np.random.default_rng(seed)
    keys = np.sort(rng.integers(0, 52, size=(rows, 5), dtype=np.uint8), axis=0)
    counts = np.where(rng.random((rows, 10, 4)) < 0.5, 0,
                      np.minimum(rng.lognormal(8, 2.5, (rows, 10, 4)), 1_070_190)).astype(np.uint32)
    return {"keys": keys, "counts": counts, "weights": rng.integers(1, 25, rows).astype(np.int64),
            "signed": rng.integers(-2**63, 2**63 - 1, size=(7, 3), dtype=np.int64, endpoint=True),
            "small": np.arange(-5, 5, dtype=np.int16)[::-1],            # not contiguous
            "wide": (rng.integers(0, 2**63, 40, dtype=np.uint64) * 2).astype(np.uint64),
            "flags": rng.random(33) < 0.3, "big_endian": np.arange(9, dtype=">u4").reshape(3, 3),
            "empty": np.zeros((0, 40), dtype=np.uint32), "scalar": np.array(7, dtype=np.int32)}


KEY = cache_key("demo", {"deck": tuple(range(52)), "qualifier": Fraction(1, 2)}, "1")


def assert_same(back: dict, arrays: dict) -> None:
    assert sorted(back) == sorted(arrays)
    for name, array in arrays.items():
        assert back[name].dtype == array.dtype and back[name].shape == array.shape, name
        assert np.array_equal(back[name], array), name
        assert back[name].flags.writeable and back[name].flags.c_contiguous and back[name].flags.aligned


def signed(data: bytes, secret: bytes) -> bytes:
    """A file's bytes with its HMAC made anew under `secret`."""
    body = data[:-count_cache.DIGEST_BYTES]
    return body + hmac.new(secret, body, hashlib.sha256).digest()


# --- keys and round trips ------------------------------------------------------------------

def test_cache_key_is_canonical_and_exact():
    base = cache_key("holdem", {"deck": [0, 1, 2], "ratio": Fraction(3, 2), "rules": {"b": 1, "a": (2, 3)}}, "4")
    assert base == cache_key("holdem", {"rules": {"a": [2, 3], "b": 1}, "ratio": Fraction(6, 4), "deck": (0, 1, 2)}, "4")
    assert len(base) == 64 and int(base, 16) >= 0
    assert base != cache_key("holdem", {"deck": [0, 1, 2], "ratio": Fraction(3, 2), "rules": {"b": 1, "a": (2, 3)}}, "5")
    assert base != cache_key("stud", {"deck": [0, 1, 2], "ratio": Fraction(3, 2), "rules": {"b": 1, "a": (2, 3)}}, "4")
    assert base != cache_key("holdem", {"deck": [0, 1, 2], "ratio": Fraction(3, 2) + Fraction(1, 10**30),
                                        "rules": {"b": 1, "a": (2, 3)}}, "4")
    with pytest.raises(TypeError):
        cache_key("holdem", {"ratio": 1.5}, "1")
    with pytest.raises(TypeError):
        cache_key("holdem", {1: "no"}, "1")


def test_round_trip(tmp_path):
    arrays = sample_arrays()
    meta = {"kind": "demo", "rows": 5000, "ratio": Fraction(1, 3), "note": "café"}
    path = store(tmp_path, KEY, arrays, meta)
    assert path.name == f"demo-{KEY[:16]}.tgacache" and path.exists()
    back, back_meta = load(tmp_path, KEY)
    assert_same(back, arrays)
    assert back_meta == {"kind": "demo", "rows": 5000, "ratio": "1/3", "note": "café"}
    back["counts"][0] = 1                                               # copy on write: the file is unchanged
    assert_same(load(tmp_path, KEY)[0], arrays)
    assert load(tmp_path, cache_key("demo", {}, "1")) is None           # another key: absent


def test_identical_inputs_give_identical_bytes(tmp_path):
    (tmp_path / "a").mkdir(), (tmp_path / "b").mkdir()
    first = store(tmp_path / "a", KEY, sample_arrays(2), {"kind": "demo", "x": [1, 2]}).read_bytes()
    again = store(tmp_path / "b", KEY, sample_arrays(2), {"x": (1, 2), "kind": "demo"}).read_bytes()
    assert first == again and first.startswith(b"TGACACHE 4\n")


def test_empty_set_and_refused_dtypes(tmp_path):
    store(tmp_path, KEY, {}, {})
    assert load(tmp_path, KEY) == ({}, {})
    with pytest.raises(TypeError):
        store(tmp_path, KEY, {"x": np.zeros(3, dtype=np.float64)}, {})
    with pytest.raises(TypeError):
        store(tmp_path, KEY, {"x": np.array([1, 2], dtype=object)}, {})
    with pytest.raises(ValueError):
        store(tmp_path, "not-a-key", {}, {})


# --- damage and forgery are detected, never trusted ----------------------------------------

def damaged(tmp_path, capsys, change, *words) -> None:
    """Store, change the file with `change(bytes) -> bytes`, expect None, one warning line (holding every word)
    and no file left."""
    path = store(tmp_path, KEY, sample_arrays(3), {"kind": "demo"})
    path.write_bytes(change(path.read_bytes()))
    capsys.readouterr()
    assert load(tmp_path, KEY) is None
    warning = capsys.readouterr().err
    assert warning.count("\n") == 1 and "count cache" in warning and str(path) in warning, warning
    assert all(word in warning for word in words), warning
    assert not path.exists()
    assert load(tmp_path, KEY) is None and capsys.readouterr().err == ""     # now simply absent


def flip(data: bytes, at: int) -> bytes:
    return data[:at] + bytes([data[at] ^ 0x10]) + data[at + 1:]


@pytest.mark.parametrize("change", [
    lambda data: flip(data, len(data) // 2), lambda data: flip(data, len(data) - 3),
    lambda data: flip(data, data.index(b'"shape"') + 2), lambda data: data.replace(b'"demo"', b'"dema"', 1),
    lambda data: data[:len(data) - 100], lambda data: data[:40], lambda data: data + b"\0"],
    ids=["middle", "signature", "header", "meta", "truncated", "inside the header", "extra byte"])
def test_damage_fails_the_signature(tmp_path, capsys, change):
    damaged(tmp_path, capsys, change, "HMAC")


@pytest.mark.parametrize("change,words", [(lambda data: b"", ["not a cache file"]),
                                          (lambda data: data.replace(b"TGACACHE 4\n", b"TGACACHE 3\n", 1),
                                           ["format version", "this code reads 4"])], ids=["empty", "format 3"])
def test_other_files_are_not_read(tmp_path, capsys, change, words):
    damaged(tmp_path, capsys, change, *words)


def test_a_consistent_forgery_is_not_trusted(tmp_path, capsys):
    """One deal moved between two outcomes of one class (every total kept) and the file signed anew by
    someone who knows the format but not the user's key: not trusted, deleted, recounted."""
    arrays = sample_arrays(4)
    path = store(tmp_path, KEY, arrays, {"kind": "demo"})
    counts = arrays["counts"].copy()
    row = int(np.flatnonzero(counts[:, 0, 0] > 0)[0])
    counts[row, 0, 0] -= 1
    counts[row, 0, 1] += 1
    (tmp_path / "forger").mkdir()
    forged = store(tmp_path / "forger", KEY, {**arrays, "counts": counts}, {"kind": "demo"}).read_bytes()
    assert len(forged) == path.stat().st_size and forged != path.read_bytes()
    path.write_bytes(signed(forged, b"the forger's own key"))
    assert load(tmp_path, KEY) is None
    warning = capsys.readouterr().err
    assert "HMAC does not match" in warning and str(count_cache.key_path()) in warning and not path.exists()
    path.write_bytes(signed(forged, count_cache.signing_key()))     # only the key's holder can sign a file
    assert np.array_equal(load(tmp_path, KEY)[0]["counts"], counts)


def test_the_key_is_made_on_first_use_readable_by_the_user_only(tmp_path, monkeypatch):
    where = tmp_path / "config" / "count-cache.key"
    monkeypatch.setenv(count_cache.KEY_ENV, str(where))
    secret = count_cache.signing_key()
    assert len(secret) == 32 and stat.S_IMODE(where.stat().st_mode) == 0o600
    assert count_cache.signing_key() == secret                          # kept, not made again
    path = store(tmp_path, KEY, sample_arrays(5), {})
    monkeypatch.setenv(count_cache.KEY_ENV, str(tmp_path / "another.key"))
    assert load(tmp_path, KEY) is None and not path.exists()            # another user's key: not trusted
    monkeypatch.delenv(count_cache.KEY_ENV)
    assert count_cache.key_path() == count_cache.DEFAULT_KEY_PATH.expanduser()


def test_a_key_file_that_holds_no_key_is_unusable(tmp_path, monkeypatch):
    bad = tmp_path / "bad.key"
    bad.write_text("not a key\n")
    monkeypatch.setenv(count_cache.KEY_ENV, str(bad))
    with pytest.raises(Unusable, match="does not hold a key"):
        open_folder(tmp_path / "cache")


def test_another_key_with_the_same_prefix_is_not_ours(tmp_path, capsys):
    path = store(tmp_path, KEY, sample_arrays(4), {"kind": "demo"})
    other = KEY[:16] + ("0" if KEY[16] != "0" else "1") + KEY[17:]
    assert load(tmp_path, other) is None
    assert path.exists() and capsys.readouterr().err == ""


# --- the folder is the cache's own ---------------------------------------------------------

def test_a_new_or_empty_folder_is_tagged_and_a_foreign_one_refused(tmp_path):
    for folder in (tmp_path / "new" / "cache", tmp_path / "empty"):
        if folder.name == "empty":
            folder.mkdir()
        open_folder(folder)
        assert (folder / "CACHEDIR.TAG").read_text().startswith("Signature: 8a477f597d28d172789f06886806bc55\n")
        open_folder(folder)                                             # tagged: used again
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("mine")
    with pytest.raises(Unusable, match="no CACHEDIR.TAG"):
        open_folder(mine)
    assert [p.name for p in mine.iterdir()] == ["notes.txt"]
    with pytest.raises(Unusable, match="is a file"):
        open_folder(mine / "notes.txt")
    with pytest.raises(Unusable, match="cannot be made"):
        open_folder(mine / "notes.txt" / "cache")


def test_a_read_only_folder_is_refused(tmp_path, monkeypatch):
    open_folder(tmp_path)
    monkeypatch.setattr(count_cache.os, "access", lambda path, mode: False)
    with pytest.raises(Unusable, match="read-only|not writable"):
        open_folder(tmp_path)


def dead_pid() -> int:
    return int(subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                              text=True, check=True).stdout)


def test_only_names_the_cache_makes_are_deleted(tmp_path):
    """A running writer's temporary file stays however old; a gone writer's goes at the next start however new;
    the user's files (hidden partial files included) and other names stay, eviction included."""
    open_folder(tmp_path)
    entry = f"demo-{KEY[:16]}.tgacache"
    running = tmp_path / f".{entry}.{os.getpid()}.abc123_x.partial"
    gone = tmp_path / f".{entry}.{dead_pid()}.abc123_y.partial"
    users = [tmp_path / name for name in (".notes.partial", ".draft.tgacache.partial", "notes.txt",
                                          "my.tgacache", f".{entry}.partial")]
    for path in [running, gone, *users]:
        path.write_text("x")
        os.utime(path, (time.time() - 7200,) * 2 if path != gone else None)
    open_folder(tmp_path)
    assert running.exists() and not gone.exists() and all(path.exists() for path in users)
    store(tmp_path, KEY, sample_arrays(6), {"kind": "demo"}, max_bytes=10**9)
    count_cache.evict(tmp_path, 0)
    assert running.exists() and all(path.exists() for path in users)
    assert count_cache.cache_files(tmp_path) == []


def test_eviction_keeps_the_folder_bounded_and_the_most_recent(tmp_path):
    rng = np.random.default_rng(5)
    keys = [cache_key("demo", {"n": n}, "1") for n in range(6)]
    payload = lambda: {"noise": rng.integers(0, 2**32, 20_000, dtype=np.uint32)}  # ~80 kB
    size = store(tmp_path, keys[0], payload(), {"kind": "demo"}).stat().st_size
    bound = int(3.5 * size)                                            # room for three files

    def age(n):                       # distinct old mtimes, in storing order (a load touches with now)
        for path in tmp_path.glob(f"*-{keys[n][:16]}.tgacache"):
            os.utime(path, ns=(10**18 + n * 10**9,) * 2)

    age(0)
    for n in range(1, 6):
        if n == 4:
            assert load(tmp_path, keys[1]) is not None                  # reading makes keys[1] recent
        store(tmp_path, keys[n], payload(), {"kind": "demo"}, max_bytes=bound)
        assert sum(path.stat().st_size for path in count_cache.cache_files(tmp_path)) <= bound
        assert any(path.name.endswith(f"-{keys[n][:16]}.tgacache") for path in count_cache.cache_files(tmp_path))
        age(n)
    kept = {path.name.split("-")[1].split(".")[0] for path in count_cache.cache_files(tmp_path)}
    assert kept == {keys[1][:16], keys[4][:16], keys[5][:16]}          # 0, 2, 3 were least recently used


# --- trouble writing is one line, never fatal ------------------------------------------------

def test_a_file_larger_than_the_bound_is_not_kept(tmp_path, capsys):
    assert store(tmp_path, KEY, sample_arrays(6), {"kind": "demo"}, max_bytes=1000) is None
    assert list(tmp_path.iterdir()) == [] and "exceed" in capsys.readouterr().err


class FullDisk:
    """A file on a disk that is full after 100 kB."""

    def __init__(self, handle):
        self.handle = handle

    def __enter__(self):
        return self

    def __exit__(self, *problem):
        self.handle.close()

    def write(self, data):
        if self.handle.tell() + memoryview(data).nbytes > 100_000:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return self.handle.write(data)

    def __getattr__(self, name):
        return getattr(self.handle, name)


def test_a_full_disk_is_one_line_and_leaves_the_old_file(tmp_path, monkeypatch, capsys):
    arrays = sample_arrays(7)
    good = store(tmp_path, KEY, arrays, {"kind": "demo"})
    before = good.read_bytes()
    monkeypatch.setattr(count_cache, "open", lambda *args: FullDisk(open(*args)), raising=False)
    assert store(tmp_path, KEY, sample_arrays(8), {"kind": "demo"}) is None
    assert capsys.readouterr().err == f"count not cached: {good}: No space left on device\n"
    assert [p.name for p in tmp_path.iterdir()] == [good.name] and good.read_bytes() == before
    monkeypatch.undo()
    assert_same(load(tmp_path, KEY)[0], arrays)


def test_a_failure_at_fsync_leaves_no_file(tmp_path, monkeypatch, capsys):
    def fail(fd):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))
    monkeypatch.setattr(count_cache.os, "fsync", fail)
    assert store(tmp_path, KEY, sample_arrays(9), {"kind": "demo"}) is None
    monkeypatch.undo()
    assert capsys.readouterr().err.endswith(": Read-only file system\n")
    assert list(tmp_path.iterdir()) == [] and load(tmp_path, KEY) is None


def test_the_header_is_plain_json(tmp_path):
    path = store(tmp_path, KEY, sample_arrays(10), {"kind": "demo"})
    magic, header = path.read_bytes().split(b"\n")[:2]
    fields = json.loads(header)
    assert magic == b"TGACACHE 4" and fields["key"] == KEY and fields["meta"] == {"kind": "demo"}
    assert (len(magic) + len(header) + 2) % count_cache.ALIGN == 0
    assert [a["name"] for a in fields["arrays"]] == sorted(sample_arrays())
