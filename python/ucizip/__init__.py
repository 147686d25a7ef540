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
import os
import tempfile

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
    """An open .ucz archive (see ucizip.open)."""

    def __init__(self, path, engine=None, workers=0, canonical=False, cache_path=None):
        self._dec = None
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
        """Game number `number` (1-based, as list gives it), decoding only its block."""
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


def compress(src, out_path, engine=None, workers=0, **options):
    """Compresses src into the archive out_path (written to a temporary file beside it,
    renamed once complete). src: a path (str or os.PathLike: plain PGN or compressed
    with zstd, gzip, bzip2 or xz), or an iterable of PGN texts (str or bytes, each one
    or more games, kept byte for byte). engine: a profile name, .profile file or
    executable (None: "stockfish"); options: other uz_options fields by name (depth,
    model, block_games, ...). Returns the counts (a dict of uz_compress_stats)."""
    out_path = os.fspath(out_path)
    opts = _options(engine, workers, **options)
    comp, diag = ctypes.c_void_p(), _lib.UzDiag()
    _check(_lib.lib.uz_compressor_open(ctypes.byref(comp), ctypes.byref(opts), ctypes.byref(diag)), diag)
    fd, tmp = tempfile.mkstemp(prefix=".ucizip-", suffix=".tmp", dir=os.path.dirname(os.path.abspath(out_path)))
    os.close(fd)
    done = False
    try:
        out = _CFile(tmp, "wb")
        try:
            _compress_into(comp, out, src, diag)
        finally:
            if not out.close():
                raise OSError(f"{out_path}: write error")
        stats = _lib.UzCompressStats()
        _lib.lib.uz_compressor_stats(comp, ctypes.byref(stats))
        os.replace(tmp, out_path)
        done = True
        return {name: getattr(stats, name) for name, _ in _lib.UzCompressStats._fields_}
    finally:
        _lib.lib.uz_compressor_close(comp)
        if not done:
            os.unlink(tmp)


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
