/* builtin-1: the search. Every root move is searched once, with a full window, by a
 * fixed-depth negamax alpha-beta search ending in a quiescence search; a transposition
 * table and move ordering (table move, MVV-LVA captures, killer moves) cut the tree. The
 * result depends only on the position: per-position state is a table generation tag
 * and a few killer slots, never a table wipe. doc/builtin.md is the specification. This
 * file holds builtin-1's own parts, its quiescence search and root; the full-width node,
 * table, ordering and attack test are shared with builtin-2 (search_node.h). builtin-1
 * alone runs this file. */
#include <stdio.h>

#include "search_node.h"
#include "v1_search.h"

_Static_assert(B1_MAX_DEPTH <= B_MAX_DEPTH, "b_node_budget covers builtin-1's depths");

static int search(b_search *s, uz_position *pos, const b1_material *mat, int depth, int alpha, int beta, int ply);

/* Quiescence. At its first two plies (qdepth 0 and 1) a side in check plays every legal
 * move (mate is found here); otherwise the side to move stands pat on the static
 * evaluation, then tries captures and queen promotions, MVV-LVA first, skipping captures
 * that cannot lift the score to alpha (delta pruning) or look losing. Deeper, checks are
 * not detected, and below the first ply a lazy estimate (material and squares) replaces
 * the evaluation when it is B_LAZY_MARGIN beyond the window. */
static int qsearch(b_search *s, uz_position *pos, const b1_material *mat, int alpha, int beta, int ply, int qdepth)
{
    s->nodes++;
    if (ply >= B_MAX_PLY || s->nodes > s->budget)
        return uz__b1_evaluate_cached(pos, mat, s->pawn_cache);
    uz_move moves[UZ_MAX_MOVES];
    int keys[UZ_MAX_MOVES];
    int us = pos->side;
    bool in_check = qdepth <= 1 && b_king_attacked(pos, us);
    int best, stand = 0, n;
    if (in_check) {
        n = uz_generate_legal(pos, moves);
        if (n == 0)
            return -(B_MATE - ply);
        if (pos->halfmove >= 100)
            return 0;
        best = -B_INF;
    } else {
        if (pos->halfmove >= 100)
            return 0;
        if (qdepth > 0) {
            int lazy = b1_evaluate_material(pos, mat);
            if (lazy - B_LAZY_MARGIN >= beta)
                return lazy;
            stand = lazy + B_LAZY_MARGIN <= alpha ? lazy : uz__b1_evaluate_cached(pos, mat, s->pawn_cache);
        } else {
            stand = uz__b1_evaluate_cached(pos, mat, s->pawn_cache);
        }
        best = stand;
        if (best >= beta)
            return best;
        if (best > alpha)
            alpha = best;
        n = uz__b1_generate_captures(pos, moves);
    }
    for (int i = 0; i < n; i++)
        b_insert_move(moves, keys, i, in_check ? b_capture_order(pos, moves[i]) : b_capture_key(pos, moves[i]));
    for (int i = 0; i < n; i++) {
        uz_move m = moves[i];
        if (!in_check && !UZ_MOVE_PROMO(m) && b_skips_capture(pos, m, keys[i], stand, alpha))
            continue;
        b1_material after;
        b1_material_after(pos, m, mat, &after);
        b_qs_undo undo;
        b_qs_make(pos, m, &undo);
        if (!in_check && b_king_attacked(pos, us)) {
            b_qs_unmake(pos, m, &undo);
            continue;
        }
        int v = -qsearch(s, pos, &after, -beta, -alpha, ply + 1, qdepth + 1);
        b_qs_unmake(pos, m, &undo);
        if (v > best) {
            best = v;
            if (v > alpha) {
                alpha = v;
                if (v >= beta)
                    break;
            }
        }
    }
    return best;
}

static int search(b_search *s, uz_position *pos, const b1_material *mat, int depth, int alpha, int beta, int ply)
{
    if (depth <= 0)
        return qsearch(s, pos, mat, alpha, beta, ply, 0);
    return b_search_node(s, pos, mat, depth, alpha, beta, ply, search);
}

void uz__b1_score_moves(b_search *s, const uz_position *root, const uz_move *moves, int n, int32_t *scores)
{
    uz__b_search_begin_position(s);
    uz_position pos = *root;
    b1_material mat;
    uz__b1_material_init(&pos, &mat);
    for (int i = 0; i < n; i++) {
        b1_material after;
        b1_material_after(&pos, moves[i], &mat, &after);
        b_undo undo;
        s->nodes = 0;
        b_make(s->depth == 1, &pos, moves[i], &undo);
        int v = -search(s, &pos, &after, s->depth - 1, -B_INF, B_INF, 1);
        b_unmake(&pos, moves[i], &undo);
        scores[i] = b_to_engine_score(v);
        s->total_nodes += (uint64_t)s->nodes;
    }
}

uint64_t uz__b1_hash_constants(uint64_t hash)
{
    char text[400];
    snprintf(text, sizeof text,
             "builtin-1 search rules 1: root full window, negamax alpha-beta, qsearch captures+queen promotions, "
             "in-check evasions at qdepth 0-1, losing captures skipped, lazy eval; tt %u; delta %d; lazy %d; max ply %d; "
             "budget %d %d %d; mate %d\n",
             B_TT_SIZE, B_DELTA_MARGIN, B_LAZY_MARGIN, B_MAX_PLY, b_node_budget[1], b_node_budget[2], b_node_budget[3],
             B_MATE);
    return uz__b_hash_search(hash, text);
}
