# Ethereal (tested with 12.00, Debian package ethereal-chess).
# Quirks: silently ignores "go searchmoves" (permove does not need it), MultiPV max 256,
# Hash 1 crashes it (minimum 2), no "Clear Hash" button (ucinewgame clears).
name = Ethereal
exe = ethereal-chess
exe = /usr/games/ethereal-chess
exe = Ethereal
depth = 1
modes = multipv permove
max_multipv = 256
clear = ucinewgame
option.Threads = 1
option.Hash = 2
