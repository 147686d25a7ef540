"""ucizip: chess games (PGN) in .ucz archives, from Python, over libucizip.

    import ucizip
    with ucizip.open("games.ucz") as archive:
        for game in archive.games():          # decodes with the archive's engine
            print(game.tags["White"], len(game.pgn))
        for entry in archive.list(filter={"White": "Carlsen, Magnus"}):  # no engine
            print(entry.number, entry.tags.get("Date"))
    ucizip.compress("games.pgn", "games.ucz")

Text is handed out as str: the input's bytes decoded as UTF-8 with the
"surrogateescape" error handler, so that bytes that are not UTF-8 (Latin-1 tags) come
back exactly with .encode("utf-8", "surrogateescape"); Game.raw gives the bytes.
"""
import ctypes
import errno
import os
import stat
import tempfile
import threading

from . import _lib
from ._lib import UZ_DONE, UZ_OK

__all__ = ["open", "compress", "version", "Archive", "Game", "GameTags", "Error"]


def _text(b):
    return b.decode("utf-8", "surrogateescape") if b is not None else None


def _bytes(s):
    if s is None or isinstance(s, bytes):
        return s
    return os.fsencode(s) if isinstance(s, os.PathLike) else s.encode("utf-8", "surrogateescape")


class Error(Exception):
    """A failure of libucizip: str(e) is the library's message; code, result (the
    result's name), line, column and game say more where they apply."""

    def __init__(self, code, diag, name=None):
        self.code = code
        self.result = _text(_lib.lib.uz_result_str(code))
        message = _text(diag.message) or self.result
        self.line, self.column, self.game = diag.line, diag.column, diag.game
        super().__init__(f"{name}: {message}" if name else message)


def _check(code, diag, name=None):
    if code not in (UZ_OK, UZ_DONE):
        raise Error(code, diag, name)
    return code


def version():
    """The version of the libucizip in use ("0.1.0")."""
    return _text(_lib.lib.uz_version())


class _CFile:
    """A C stream (FILE *) on a path, closed with the object."""

    def __init__(self, path, mode):
        self.name = os.fsdecode(path)
        self.ptr = _lib.libc.fopen(os.fsencode(path), mode.encode())
        if not self.ptr:
            err = ctypes.get_errno()
            raise OSError(err, os.strerror(err), self.name)

    def close(self):
        ok = True
        if self.ptr:
            ok = _lib.libc.fclose(self.ptr) == 0
            self.ptr = None
        return ok


def _options(engine=None, workers=0, canonical=False, **settings):
    o = _lib.UzOptions()
    _lib.lib.uz_options_init(ctypes.byref(o))
    o.engine = _bytes(engine)
    o.workers = workers
    o.canonical = canonical
    for key, value in settings.items():
        if value is None:
            continue
        if not hasattr(o, key):
            raise TypeError(f"unknown option {key!r}")
        setattr(o, key, _bytes(value) if isinstance(value, (str, os.PathLike)) else value)
    return o


def _tags_dict(gt):
    tags = {}
    for i in range(gt.n_tags):
        name = _text(gt.tags[i].name)
        tags.setdefault(name, _text(gt.tags[i].value))  # the first of a repeated name
    return tags


class GameTags:
    """A game as the archive's structure gives it without an engine: number (1-based,
    as Archive.game counts), tags (a dict; the value the archive derives from the moves,
    a final position's FEN, is None), is_game (False for the bytes after an input's last
    game) and as_text (a game kept as text)."""

    def __init__(self, gt):
        self.number = gt.number
        self.is_game = gt.is_game
        self.as_text = gt.as_text
        self.tags = _tags_dict(gt)

    def __repr__(self):
        return f"<{type(self).__name__} {self.number} {self.tags.get('White')!r} - {self.tags.get('Black')!r}>"


class Game(GameTags):
    """A decoded game: GameTags with every tag's value, pgn (its text exactly as in the
    input, as str) and raw (the same as bytes)."""

    def __init__(self, gt, raw):
        super().__init__(gt)
        self.raw = raw
        self.pgn = _text(raw)


def _matches(filter, tags):
    if filter is None:
        return True
    if callable(filter):
        return bool(filter(tags))
    for name, want in filter.items():
        value = tags.get(name)
        if value is None:
            return False
        if callable(want) and not want(value):
            return False
        if not callable(want) and value != want:
            return False
    return True


class Archive:
    """An open .ucz archive (see ucizip.open). One Archive may be used from several
    threads: its calls take turns (a lock per Archive, as libucizip's objects are for one
    thread at a time), so threads that should decode at once each open their own."""

    def __init__(self, path, engine=None, workers=0, canonical=False, cache_path=None):
        self._dec = None
        self._lock = threading.RLock()  # (before anything that may fail: __del__ takes it)
        self.path = os.fspath(path)
        self._name = _bytes(self.path)
        self._opts = _options(engine, workers, canonical, cache_path=cache_path)
        _CFile(self.path, "rb").close()  # a missing file fails here, not at first use

    # -- engine-free: the structure streams and the indexes only --

    def list(self, filter=None, all_records=False):
        """Yields GameTags for the games whose tags match filter, never starting an
        engine. filter: None, {name: value or predicate(value)} (all must hold), or a
        predicate(tags). all_records: also the records that are not games."""
        f = _CFile(self.path, "rb")
        reader, diag = ctypes.c_void_p(), _lib.UzDiag()
        try:
            _check(_lib.lib.uz_tag_reader_open(ctypes.byref(reader), f.ptr, self._name, ctypes.byref(diag)), diag)
            gt = _lib.UzGameTags()
            while _check(_lib.lib.uz_tag_reader_next(reader, ctypes.byref(gt), ctypes.byref(diag)), diag,
                         self.path) == UZ_OK:
                entry = GameTags(gt)
                if (entry.is_game or all_records) and (filter is None or entry.is_game) and \
                        _matches(filter, entry.tags):
                    yield entry
        finally:
            _lib.lib.uz_tag_reader_close(reader)
            f.close()

    tags = list

    def __len__(self):
        """Game records in the archive (as Archive.game numbers them), from its indexes."""
        f = _CFile(self.path, "rb")
        n, diag = ctypes.c_uint64(), _lib.UzDiag()
        try:
            _check(_lib.lib.uz_archive_game_count(f.ptr, self._name, ctypes.byref(n), ctypes.byref(diag)), diag,
                   self.path)
        finally:
            f.close()
        return n.value

    def info(self):
        """The archive's members, each a dict (offset, length, games, blocks, moves,
        engine, settings, model, coder, chess960)."""
        f = _CFile(self.path, "rb")
        n, diag = ctypes.c_size_t(), _lib.UzDiag()
        try:
            _check(_lib.lib.uz_archive_members(f.ptr, self._name, None, 0, ctypes.byref(n), ctypes.byref(diag)),
                   diag, self.path)
            members = (_lib.UzMemberInfo * n.value)()
            _check(_lib.lib.uz_archive_members(f.ptr, self._name, members, n.value, ctypes.byref(n),
                                               ctypes.byref(diag)), diag, self.path)
        finally:
            f.close()
        return [{k: (_text(v) if isinstance(v, bytes) else v) for k, v in
                 ((name, getattr(m, name)) for name, _ in _lib.UzMemberInfo._fields_)} for m in members]

    def check(self):
        """Checks the structure and every checksum that needs no engine; raises Error."""
        f = _CFile(self.path, "rb")
        diag = _lib.UzDiag()
        try:
            _check(_lib.lib.uz_archive_check(f.ptr, self._name, ctypes.byref(diag)), diag, self.path)
        finally:
            f.close()

    # -- decoding: starts the archive's engine --

    def _new_decoder(self):
        dec, diag = ctypes.c_void_p(), _lib.UzDiag()
        _check(_lib.lib.uz_decompressor_open(ctypes.byref(dec), ctypes.byref(self._opts), ctypes.byref(diag)), diag)
        return dec

    def _decoder(self):
        """The decompressor of game(n), kept (with its engines) between calls."""
        if self._dec is None:
            self._dec = self._new_decoder()
        return self._dec

    @staticmethod
    def _decoded(dec, text, size, diag):
        gt = _lib.UzGameTags()
        _check(_lib.lib.uz_decompressor_game_tags(dec, ctypes.byref(gt), ctypes.byref(diag)), diag)
        return Game(gt, ctypes.string_at(text, size.value) if size.value else b"")

    def games(self, filter=None, all_records=False):
        """Yields the decoded games (Game) in order. With a filter (as for list), the
        tags are read first without an engine and only the matching games are decoded.
        all_records: also the records that are not games (then the concatenation of
        every .raw is the archive's content, byte for byte)."""
        if filter is not None:
            for entry in self.list(filter):
                yield self.game(entry.number)
            return
        # A decompressor of its own, so that game(n) inside the loop does not disturb it.
        f = _CFile(self.path, "rb")
        dec = None
        diag, text, size = _lib.UzDiag(), ctypes.c_void_p(), ctypes.c_size_t()
        try:
            dec = self._new_decoder()
            _check(_lib.lib.uz_decompressor_begin(dec, f.ptr, self._name, ctypes.byref(diag)), diag, self.path)
            while _check(_lib.lib.uz_decompressor_next_game(dec, ctypes.byref(text), ctypes.byref(size),
                                                            ctypes.byref(diag)), diag, self.path) == UZ_OK:
                game = self._decoded(dec, text, size, diag)
                if game.is_game or all_records:
                    yield game
        finally:
            if dec is not None:
                _lib.lib.uz_decompressor_close(dec)
            f.close()

    def __iter__(self):
        return self.games()

    def game(self, number):
        """Game number `number` (an int, 1-based, as list gives it), decoding only its
        block. TypeError for a number that is not an int, IndexError for one below 1."""
        if not isinstance(number, int) or isinstance(number, bool):
            raise TypeError(f"game numbers are int, not {type(number).__name__}")
        if number < 1:
            raise IndexError(f"no game {number}: games are numbered from 1")
        with self._lock:  # the kept decoder is one thread's at a time
            dec = self._decoder()
            f = _CFile(self.path, "rb")
            diag, text, size = _lib.UzDiag(), ctypes.c_void_p(), ctypes.c_size_t()
            try:
                _check(_lib.lib.uz_decompressor_game(dec, f.ptr, self._name, number, ctypes.byref(text),
                                                     ctypes.byref(size), ctypes.byref(diag)), diag, self.path)
                return self._decoded(dec, text, size, diag)
            finally:
                f.close()

    def close(self):
        with self._lock:
            if self._dec is not None:
                _lib.lib.uz_decompressor_close(self._dec)
                self._dec = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        self.close()


def open(path, engine=None, workers=0, canonical=False, cache_path=None):
    """Opens the archive at path. engine: the profile, .profile file or executable to
    decode with (None: the installed profile the archive names); workers: engine
    processes (0: one per core); canonical: games in PGN export format instead of their
    exact bytes; cache_path: a persistent score cache. Engines start on first decode."""
    return Archive(path, engine, workers, canonical, cache_path)


def compress(src, out_path, engine=None, workers=0, force=False, **options):
    """Compresses src into the archive out_path. src: a path (str or os.PathLike: plain
    PGN or compressed with zstd, gzip, bzip2 or xz), or an iterable of PGN texts (str or
    bytes, each one or more games, kept byte for byte). engine: a profile name, .profile
    file or executable (None: "stockfish"); options: other uz_options fields by name
    (depth, model, block_games, ...). Returns the counts (a dict of uz_compress_stats).

    out_path follows the program's rules (doc/safety.md): the archive is written to a
    temporary file beside it (mode 0600) and given its name once complete, with the
    input's mode and modification time (a path) or 0666 less the umask; an existing file
    or symbolic link is replaced only with force=True (FileExistsError, also when one
    appears while compressing); a character device or FIFO (/dev/null, a named pipe) is
    written into, never replaced; a directory or other special file is refused, and so is
    out_path naming the input itself, even with force."""
    out_path = os.fspath(out_path)
    target = _Output(out_path, src if isinstance(src, (str, os.PathLike)) else None, force)
    comp = None
    try:  # (the output first: a compressor, with its engine processes, only once it is open)
        opts = _options(engine, workers, **options)
        comp, diag = ctypes.c_void_p(), _lib.UzDiag()
        _check(_lib.lib.uz_compressor_open(ctypes.byref(comp), ctypes.byref(opts), ctypes.byref(diag)), diag)
        _compress_into(comp, target.file, src, diag)
        stats = _lib.UzCompressStats()
        _lib.lib.uz_compressor_stats(comp, ctypes.byref(stats))
        target.commit()
        return {name: getattr(stats, name) for name, _ in _lib.UzCompressStats._fields_}
    finally:
        if comp:
            _lib.lib.uz_compressor_close(comp)
        target.abort()


def _is_stdio_link(path):
    """A symbolic link under /dev or /proc (/dev/stdout, /proc/self/fd/1): never replaced."""
    return os.path.islink(path) and os.path.abspath(path).startswith(("/dev/", "/proc/"))


class _Output:
    """Where compress writes (doc/safety.md "Outputs"): a temporary file renamed once
    complete, or a device, FIFO or /dev link written into directly."""

    def __init__(self, path, src, force):
        self.path, self.tmp, self.file = path, None, None
        try:
            st = os.stat(path)
        except FileNotFoundError:
            st = None
        if src is not None and st is not None and os.path.exists(src) and os.path.samefile(src, path):
            raise ValueError(f"{path}: the output would replace the input; refused even with force")
        if st is not None and (stat.S_ISCHR(st.st_mode) or stat.S_ISFIFO(st.st_mode) or
                               (_is_stdio_link(path) and stat.S_ISREG(st.st_mode))):
            self.file = _CFile(path, "ab" if stat.S_ISREG(st.st_mode) else "wb")
            return
        if st is not None and not stat.S_ISREG(st.st_mode):
            raise IsADirectoryError(errno.EISDIR, "not a regular file, a device or a FIFO; refused", path) \
                if stat.S_ISDIR(st.st_mode) else OSError(errno.EINVAL, "not a regular file, a device or a FIFO; "
                                                        "refused", path)
        if (st is not None or os.path.islink(path)) and not force:
            raise FileExistsError(errno.EEXIST, "exists; force=True replaces it", path)
        self.force = force
        self.mode = stat.S_IMODE(os.stat(src).st_mode) if src is not None and os.path.isfile(src) else None
        self.times = (os.stat(src).st_atime_ns, os.stat(src).st_mtime_ns) if self.mode is not None else None
        fd, self.tmp = tempfile.mkstemp(prefix=os.path.basename(path) + ".", suffix=".tmp",
                                        dir=os.path.dirname(os.path.abspath(path)))  # O_EXCL, 0600
        os.close(fd)
        try:
            self.file = _CFile(self.tmp, "wb")
        except BaseException:
            self.abort()
            raise

    def commit(self):
        f, self.file = self.file, None
        if not f.close():
            raise OSError(f"{self.path}: write error")
        if self.tmp is None:
            return
        fd = os.open(self.tmp, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        if self.mode is None:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(self.tmp, 0o666 & ~umask)
        else:
            os.chmod(self.tmp, self.mode)
            os.utime(self.tmp, ns=self.times)
        if self.force:
            os.replace(self.tmp, self.path)
        else:  # never over a name that appeared meanwhile
            try:
                os.link(self.tmp, self.path)
            except FileExistsError:
                kept, self.tmp = self.tmp, None  # (kept for the user, not removed by abort)
                raise FileExistsError(errno.EEXIST, "appeared while compressing; not replaced (the archive is "
                                      "in " + kept + ")", self.path) from None
            except OSError as e:  # (a file system without hard links: checked, then renamed)
                if e.errno not in (errno.EPERM, errno.EOPNOTSUPP) or os.path.lexists(self.path):
                    raise
                os.rename(self.tmp, self.path)
                self.tmp = None
                return
            os.unlink(self.tmp)
        self.tmp = None

    def abort(self):
        """Closes and removes what commit did not finish; a no-op after commit."""
        if self.file is not None:
            self.file.close()
            self.file = None
        if self.tmp is not None:
            os.unlink(self.tmp)
            self.tmp = None


def _compress_into(comp, out, src, diag):
    L = _lib.lib
    _check(L.uz_compressor_begin(comp, out.ptr, ctypes.byref(diag)), diag)
    if isinstance(src, (str, os.PathLike)):
        _check(L.uz_compressor_add_file(comp, os.fsencode(src), ctypes.byref(diag)), diag, os.fsdecode(src))
    else:
        for i, text in enumerate(src, 1):
            data = _bytes(text)
            name = f"<text {i}>"
            _check(L.uz_compressor_add_text(comp, data, len(data), name.encode(), ctypes.byref(diag)), diag, name)
    _check(L.uz_compressor_finish(comp, ctypes.byref(diag)), diag)
    if _lib.libc.fflush(out.ptr) != 0:
        raise OSError("write error")
