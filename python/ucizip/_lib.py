"""libucizip through ctypes: finding the library, the C structures and prototypes.

The structures mirror include/ucizip.h and include/ucizip_experimental.h field by field;
the experimental part is not yet stable, so this package must come from the same
release as the library it loads.
"""
import ctypes
import ctypes.util
import os

c_uz_result = ctypes.c_int


class UzDiag(ctypes.Structure):
    _fields_ = [("code", ctypes.c_int), ("line", ctypes.c_long), ("column", ctypes.c_long),
                ("game", ctypes.c_long), ("ply", ctypes.c_long), ("message", ctypes.c_char * 512)]


class UzOptions(ctypes.Structure):
    _fields_ = [
        ("version", ctypes.c_uint32),
        ("engine", ctypes.c_char_p),
        ("depth", ctypes.c_int),
        ("nodes", ctypes.c_longlong),
        ("mode", ctypes.c_char_p),
        ("hash_mb", ctypes.c_int),
        ("workers", ctypes.c_int),
        ("cache_path", ctypes.c_char_p),
        ("model", ctypes.c_char_p),
        ("k_milli", ctypes.c_int32),
        ("floor_milli", ctypes.c_int32),
        ("rank_milli", ctypes.c_int32),
        ("decay_milli", ctypes.c_int32),
        ("coder", ctypes.c_char_p),
        ("canonical", ctypes.c_bool),
        ("bad_games", ctypes.c_int),
        ("variants", ctypes.c_int),
        ("damaged_inputs", ctypes.c_int),
        ("max_games", ctypes.c_uint64),
        ("block_games", ctypes.c_uint32),
        ("max_block_moves", ctypes.c_uint64),
        ("max_block_bytes", ctypes.c_uint64),
        ("on_message", ctypes.c_void_p),
        ("on_progress", ctypes.c_void_p),
        ("user", ctypes.c_void_p),
        ("opening_milli", ctypes.c_int32),
        ("opening_plies", ctypes.c_int32),
        ("max_engine_memory_mb", ctypes.c_uint64),
        ("book", ctypes.c_int32),
    ]


class UzMemberInfo(ctypes.Structure):
    _fields_ = [("offset", ctypes.c_uint64), ("length", ctypes.c_uint64), ("games", ctypes.c_uint64),
                ("blocks", ctypes.c_uint64), ("moves", ctypes.c_uint64), ("engine", ctypes.c_char * 128),
                ("settings", ctypes.c_char * 256), ("model", ctypes.c_char * 128), ("coder", ctypes.c_char * 16),
                ("chess960", ctypes.c_bool)]


class UzCompressStats(ctypes.Structure):
    _fields_ = [(name, ctypes.c_uint64) for name in (
        "games", "moves", "move_bytes", "games_as_text", "games_skipped", "inputs_skipped", "games_read",
        "blocks", "bytes_in")] + [("resumable", ctypes.c_bool)] + [(name, ctypes.c_uint64) for name in (
            "positions", "positions_reused", "store_hits", "store_rejected", "engine_restarts")]


class UzTagPair(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("value", ctypes.c_char_p)]


class UzGameTags(ctypes.Structure):
    _fields_ = [("number", ctypes.c_uint64), ("is_game", ctypes.c_bool), ("as_text", ctypes.c_bool),
                ("n_tags", ctypes.c_size_t), ("tags", ctypes.POINTER(UzTagPair))]


UZ_OK, UZ_DONE = 0, 1
UZ_OPTIONS_VERSION = 1


def _load():
    """The library at $UCIZIP_LIBRARY, else the one installed with this package by
    `meson install` (_installed.py says where), else where the system's loader finds it."""
    path = os.environ.get("UCIZIP_LIBRARY")
    if path:
        return ctypes.CDLL(path)
    errors = []
    try:
        from . import _installed
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), _installed.LIB_FROM_PACKAGE,
                            "libucizip.so.0")
        if os.path.exists(path):
            return ctypes.CDLL(path)
        errors.append(path + ": not there")
    except ImportError:
        pass  # installed by pip: no _installed.py
    for name in ("libucizip.so.0", ctypes.util.find_library("ucizip")):
        if not name:
            continue
        try:
            return ctypes.CDLL(name)
        except OSError as e:
            errors.append(str(e))
    raise OSError("libucizip not found (install it, or set UCIZIP_LIBRARY to its path): " + "; ".join(errors))


def _prototypes(lib):
    p, c = ctypes.POINTER, ctypes.c_void_p
    diag = p(UzDiag)
    protos = {
        "uz_version": (ctypes.c_char_p, []),
        "uz_result_str": (ctypes.c_char_p, [ctypes.c_int]),
        "uz_options_init": (None, [p(UzOptions)]),
        "uz_compressor_open": (c_uz_result, [p(c), p(UzOptions), diag]),
        "uz_compressor_begin": (c_uz_result, [c, c, diag]),
        "uz_compressor_add_file": (c_uz_result, [c, ctypes.c_char_p, diag]),
        "uz_compressor_add_text": (c_uz_result, [c, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, diag]),
        "uz_compressor_finish": (c_uz_result, [c, diag]),
        "uz_compressor_stats": (None, [c, p(UzCompressStats)]),
        "uz_compressor_close": (None, [c]),
        "uz_decompressor_open": (c_uz_result, [p(c), p(UzOptions), diag]),
        "uz_decompressor_begin": (c_uz_result, [c, c, ctypes.c_char_p, diag]),
        "uz_decompressor_next_game": (c_uz_result, [c, p(c), p(ctypes.c_size_t), diag]),
        "uz_decompressor_game": (c_uz_result, [c, c, ctypes.c_char_p, ctypes.c_uint64, p(c),
                                               p(ctypes.c_size_t), diag]),
        "uz_decompressor_game_tags": (c_uz_result, [c, p(UzGameTags), diag]),
        "uz_decompressor_close": (None, [c]),
        "uz_archive_members": (c_uz_result, [c, ctypes.c_char_p, p(UzMemberInfo), ctypes.c_size_t,
                                             p(ctypes.c_size_t), diag]),
        "uz_archive_check": (c_uz_result, [c, ctypes.c_char_p, diag]),
        "uz_archive_game_count": (c_uz_result, [c, ctypes.c_char_p, p(ctypes.c_uint64), diag]),
        "uz_tag_reader_open": (c_uz_result, [p(c), c, ctypes.c_char_p, diag]),
        "uz_tag_reader_next": (c_uz_result, [c, p(UzGameTags), diag]),
        "uz_tag_reader_close": (None, [c]),
    }
    for name, (restype, argtypes) in protos.items():
        fn = getattr(lib, name)
        fn.restype = restype
        fn.argtypes = argtypes


def _libc():
    libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
    libc.fopen.restype = ctypes.c_void_p
    libc.fopen.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
    libc.fclose.restype = ctypes.c_int
    libc.fclose.argtypes = [ctypes.c_void_p]
    libc.fflush.restype = ctypes.c_int
    libc.fflush.argtypes = [ctypes.c_void_p]
    return libc


lib = _load()
_prototypes(lib)
libc = _libc()
