/* builtin-2: the search. builtin-1's fixed-depth negamax alpha-beta search with a
 * quiescence search, made cheaper where the player model cannot tell:
 *   - a root window: root moves are searched captures first, each with alpha a margin
 *     below the best score so far; a move that fails low is reported at the floor
 *     (best - margin - 1), so every score is max(exact score, floor of the best);
 *   - one full evaluation per quiescence line: the first quiescence node evaluates fully
 *     and keeps the positional part (full minus material and squares); deeper nodes add
 *     it to their own material and piece-square sums, which the search keeps move by move;
 *   - a lazy cut at the first quiescence node when material alone is beyond beta.
 * The evaluation, capture generator and attack tables are builtin-1's (frozen); the
 * full-width node, table, ordering, attack test and the quiescence make/unmake are shared
 * with builtin-1 (search_node.h). This file holds what differs on purpose: the
 * quiescence search and the root. The result depends only on the position: per-position
 * state is a table generation tag and a few killer slots, never a table wipe.
 * builtin-3 runs this same search with another full evaluation (s->evaluate), so a change
 * here changes both versions' scores. doc/builtin.md is the specification. */
#include <stdio.h>

#include "search_node.h"
#include "v2_search.h"

/* Root moves more than this below the best one are reported at the floor. */
#define ROOT_MARGIN 400
_Static_assert(B2_MAX_DEPTH <= B_MAX_DEPTH, "b_node_budget covers builtin-2's depths");

static int search(b_search *s, uz_position *pos, const b1_material *mat, int depth, int alpha, int beta, int ply);

/* Material and squares plus a positional part carried from an earlier node, clamped as
 * the evaluation is. */
static int estimate(int material, int positional)
{
    int v = material + positional;
    return v > B_EVAL_MAX ? B_EVAL_MAX : v < -B_EVAL_MAX ? -B_EVAL_MAX : v;
}

/* Quiescence, builtin-2's own (builtin-1's differs in its stand-pat score: a full or lazy
 * evaluation at every node). At its first two plies (qdepth 0 and 1) a side in check
 * plays every legal move (mate is found here); otherwise the side to move stands pat,
 * then tries captures and queen promotions, MVV-LVA first, skipping captures that cannot
 * lift the score to alpha (delta pruning) or look losing. Deeper, checks are not
 * detected. The stand-pat score is the full evaluation at qdepth 0 (unless material
 * alone is B_LAZY_MARGIN above beta: then that is returned) and, deeper, the node's
 * material and squares plus the positional part (full minus material) of the line's
 * qdepth-0 node, side to move's view (positional). */
static int qsearch(b_search *s, uz_position *pos, const b1_material *mat, int alpha, int beta, int ply, int qdepth,
                   int positional)
{
    s->nodes++;
    int material = b1_evaluate_material(pos, mat);
    if (ply >= B_MAX_PLY || s->nodes > s->budget)
        return qdepth > 0 ? estimate(material, positional) : s->evaluate(s, pos, mat);
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
        if (qdepth == 0)
            positional = s->evaluate(s, pos, mat) - material;
        best = -B_INF;
    } else {
        if (pos->halfmove >= 100)
            return 0;
        if (qdepth == 0) {
            if (material - B_LAZY_MARGIN >= beta)
                return material;
            stand = s->evaluate(s, pos, mat);
            positional = stand - material;
        } else {
            stand = estimate(material, positional);
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
        int v = -qsearch(s, pos, &after, -beta, -alpha, ply + 1, qdepth + 1, -positional);
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
        return qsearch(s, pos, mat, alpha, beta, ply, 0, 0);
    return b_search_node(s, pos, mat, depth, alpha, beta, ply, search);
}

/* The root window's floor for a best score so far: ROOT_MARGIN + 1 below it (a mate
 * counts as B_EVAL_MAX), -B_INF before any move. Never decreases as best grows, so a
 * move that failed low under an earlier floor is below the final one too. */
static int root_floor(int best)
{
    if (best <= -B_INF)
        return -B_INF;
    return (best > B_EVAL_MAX ? B_EVAL_MAX : best) - ROOT_MARGIN - 1;
}

/* builtin-2's full evaluation: builtin-1's. */
static int evaluate_hand_written(b_search *s, const uz_position *pos, const b1_material *mat)
{
    return uz__b1_evaluate_cached(pos, mat, s->pawn_cache);
}

void uz__b2_score_moves(b_search *s, const uz_position *root, const uz_move *moves, int n, int32_t *scores)
{
    uz__b2_search_root(s, evaluate_hand_written, root, moves, n, scores);
}

void uz__b2_search_root(b_search *s, b_evaluate_fn evaluate, const uz_position *root, const uz_move *moves, int n,
                        int32_t *scores)
{
    uz__b_search_begin_position(s);
    s->evaluate = evaluate;
    uz_position pos = *root;
    b1_material mat;
    uz__b1_material_init(&pos, &mat);
    /* Search order: captures and promotions by MVV-LVA, then the rest, canonical order
     * among equal keys (a stable insertion sort of the move indices). */
    int order[UZ_MAX_MOVES], keys[UZ_MAX_MOVES], raw[UZ_MAX_MOVES];
    for (int i = 0; i < n; i++) {
        int key = b_capture_order(&pos, moves[i]), j = i;
        for (; j > 0 && keys[j - 1] < key; j--) {
            keys[j] = keys[j - 1];
            order[j] = order[j - 1];
        }
        keys[j] = key;
        order[j] = i;
    }
    int best = -B_INF;
    for (int k = 0; k < n; k++) {
        int i = order[k];
        b1_material after;
        b1_material_after(&pos, moves[i], &mat, &after);
        b_undo undo;
        s->nodes = 0;
        b_make(s->depth == 1, &pos, moves[i], &undo);
        raw[i] = -search(s, &pos, &after, s->depth - 1, -B_INF, -root_floor(best), 1);
        b_unmake(&pos, moves[i], &undo);
        if (raw[i] > best)
            best = raw[i];
        s->total_nodes += (uint64_t)s->nodes;
    }
    int floor = root_floor(best);
    for (int i = 0; i < n; i++)
        scores[i] = b_to_engine_score(raw[i] > floor ? raw[i] : floor);
}

uint64_t uz__b2_hash_constants(uint64_t hash)
{
    char text[512];
    snprintf(text, sizeof text,
             "builtin-2 search rules 1: root window (captures first, floor best-margin-1), negamax alpha-beta, qsearch "
             "captures+queen promotions, in-check evasions at qdepth 0-1, losing captures skipped, full eval at qdepth 0 "
             "only, positional part carried; tt %u; delta %d; lazy %d; root margin %d; max ply %d; budget %d %d %d; "
             "mate %d\n",
             B_TT_SIZE, B_DELTA_MARGIN, B_LAZY_MARGIN, ROOT_MARGIN, B_MAX_PLY, b_node_budget[1], b_node_budget[2],
             b_node_budget[3], B_MATE);
    return uz__b_hash_search(hash, text);
}
