"""Hands the games of a ucizip archive to python-chess (when it is installed): prints
each game's players and the FEN of its final position.

    python3 to_python_chess.py games.ucz [White-name]
"""
import io
import sys

import ucizip

try:
    import chess.pgn
except ImportError:
    chess = None


def main(path, white=None):
    with ucizip.open(path) as archive:
        for game in archive.games(filter={"White": white} if white else None):
            line = f"{game.number}: {game.tags.get('White')} - {game.tags.get('Black')} {game.tags.get('Result')}"
            if chess is not None:
                parsed = chess.pgn.read_game(io.StringIO(game.pgn))
                line += f" | {parsed.end().board().fen()}"
            print(line)
    if chess is None:
        print("(python-chess is not installed: games were not parsed)", file=sys.stderr)


if __name__ == "__main__":
    main(*sys.argv[1:3])
