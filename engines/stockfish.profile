# Stockfish (tested with 15.1): the default engine. Depth 1 is the default for
# throughput (about 1.5 ms a position); deeper searches code strong games
# better but cost far more (see the README).
# "key = value" lines; see include/ucizip/engine.h (uz_engine_profile_load).
name = Stockfish
exe = stockfish
exe = /usr/games/stockfish
depth = 1
modes = multipv permove
max_multipv = 500
# ucinewgame clears hash and history tables; "option:Clear Hash" behaves the same.
clear = ucinewgame
# Threads must stay 1: with more threads the scores are not reproducible.
option.Threads = 1
# Hash changes the scores, so it is recorded with them. 1 MB: the engine is cleared
# before every position, and clearing 16 MB took longer than a depth-1 search; on the
# development samples Hash 1 gave the same bits per move at depth 1 and 8, twice as fast
# at depth 1.
option.Hash = 1
