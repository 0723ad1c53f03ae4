/* fido.engine._core: the engine's hot loops in C, where its users spend.
 *
 * Four parts, each the second writing of what the Python modules hold, which stay the
 * reference and what the pure build (FIDO_PURE=1) plays:
 * - finish: the searches' playouts (below), and Dice, their generator (dice.py);
 * - Kernel: a fresh FIDO deal played while only its legal moves and pushes are asked for
 *   (game.py's fast path; tests/engine/test_kernel.py plays both side by side);
 * - deal: dealing.py's shuffle and hands for one deal; index: hands by value (game.py).
 *
 * A search (search, champion, the analysis) plays thousands of sampled worlds to their
 * end and reads only the outcome. fido.engine.rollout's playout_outcome and smart_outcome
 * hand such a world here once every turn left is a "fast turn" (rollout.py's _fast_turn and
 * _smart_turn: plain placements on open slots, no slot rule, no Mother Theresa, no
 * drawing beside placing, a divisor or no scoring). This file plays the rest of the hand
 * on machine integers (the hands by value as bitmasks, the open slots as arrays) and
 * returns what the end's scoring needs; the game object is read, never changed.
 *
 * It is a second writing of the rules of attaching (table.py's attach, covered and adds),
 * of drawing and passing (game.py) and of the two rollout policies (rollout.py), made
 * for speed. The Python one is the reference: tests/engine/test_native.py checks that
 * both play the same moves from the same random numbers (the same outcome, and the
 * generator left in the same state), over every ruleset the property tests sweep. The
 * pure build (FIDO_PURE=1) has no extension and plays everything in Python.
 *
 * Floating-point keys are computed with the same operations in the same order as
 * rollout.py's, and built without contraction (setup.py: -ffp-contract=off), so equal
 * keys and their ties come out as in Python.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define MAX_VALUE 21 /* the largest FIDO set, double-21; larger custom sets stay in Python */
#define MAX_SEATS 16
#define MAX_OPEN 1024 /* slots open at once: at most 3 per tile of double-21 (253 tiles) */
#define MAX_DIVISOR 63 /* the smart policy's residues fit one 64-bit mask */

/* table.py's layouts, movegen.py's stuck rules, the policies (a slot's kind, end or
 * side, is not kept: what the rollouts need of it is its weight, 0 for a side) */
enum { CROSS = 0, INLINE = 1, LINE = 2, SPINNER = 3 };
enum { PASS_ONLY = 0, DRAW_ONE = 1, DRAW_UNTIL = 2, DRAW_FREE = 3 };
enum { RANDOM = 0, SMART = 1 };

/* the attributes read, their names interned once at import (PyObject_GetAttrString
 * makes and hashes a new string at every call, and a search reads them per world) */
enum {
    A_HIGH,
    A_LOW,
    A_PLAYERS,
    A_TURN,
    A_PASSES,
    A_DIVISOR,
    A_CLOCKWISE,
    A_STUCK,
    A_KEEP_IN_STOCK,
    A_MOTHER_THERESA,
    A_PENDING,
    A_OUTCOME,
    A_STOCK_COUNT,
    A_STOCK_POS,
    A_ORDER,
    A_TABLE,
    A_SHAPE,
    A_SPINNER,
    A_ARMS_TAKEN,
    A_ENDS_SUM,
    A_PLACEMENTS,
    A_OPEN,
    A_BY_VALUE,
    A_SCORES,
    N_ATTRS
};
static const char *const ATTR_NAMES[N_ATTRS] = {
    "high", "low", "players", "turn", "passes", "divisor", "_clockwise", "stuck",
    "keep_in_stock", "mother_theresa", "pending", "outcome", "stock_count", "stock_pos",
    "_order", "table", "shape", "spinner", "arms_taken", "ends_sum", "placements", "open",
    "by_value", "scores",
};
static PyObject *ATTRS[N_ATTRS];

static PyObject *attr(PyObject *obj, int name) { return PyObject_GetAttr(obj, ATTRS[name]); }

/* rollout.py's weights, W_JOKER .. W_SPARE (tests/engine/test_native.py compares them) */
static const double W_JOKER = 0.6;
static const double W_DOUBLE = 2.5;
static const double W_HEAVY = 0.1;
static const double W_SPARE = 2.0;

typedef struct {
    int players, turn, passes, d, clockwise, stuck, keep, shape, laid;
    long long ends_sum;
    int spinner, arms;
    int nopen;
    int code[MAX_OPEN], val[MAX_OPEN], weight[MAX_OPEN];
    uint32_t bv[MAX_SEATS][MAX_VALUE + 1]; /* per seat, per value v: the w with v-w in hand */
    int count[MAX_SEATS];                  /* tiles in each hand */
    long long scores[MAX_SEATS];
    long long stock_count, stock_pos;
    PyObject *order; /* the stock's drawing order (a tuple of tiles), held while playing */
    PyObject *rand;  /* the generator's random(), borrowed */
    struct DiceObject *dice; /* rand's Dice when it is one (drawn inline), borrowed */
    int over, blocked, out_seat;
} State;

/* bits set (inline: __builtin_popcount is a library call without a popcnt flag) */
static inline int popcount(uint32_t m) {
    m = m - ((m >> 1) & 0x55555555u);
    m = (m & 0x33333333u) + ((m >> 2) & 0x33333333u);
    return (int)((((m + (m >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
}
static int lowest(uint32_t m) { return __builtin_ctz(m); }
static long long pymod(long long a, long long d) { long long r = a % d; return r < 0 ? r + d : r; }

static int next_seat(const State *st, int seat) {
    if (st->clockwise) return seat + 1 < st->players ? seat + 1 : 0;
    return seat ? seat - 1 : st->players - 1;
}

/* ------------------------------------------------------------------ the searches' dice
 *
 * A search rolls every candidate of a sampled world out with the same dice, so each
 * rollout gets a generator seeded afresh; seeding random.Random (the Mersenne Twister's
 * 624 words) cost more than a double-6 rollout itself. Dice is SplitMix64 (Steele, Lea
 * and Flood 2014): a 64-bit state, made in nanoseconds, its numbers (top 53 bits) in
 * [0, 1) as random.random's. fido/engine/dice.py is the same generator in Python (the
 * pure build's), tests/engine/test_dice.py compares the two.
 */
typedef struct DiceObject {
    PyObject_HEAD
    uint64_t s;
} DiceObject;

static inline double dice_next(DiceObject *d) {
    uint64_t z = (d->s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1.0p-53;
}

static PyTypeObject DiceType;

static PyObject *dice_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    PyObject *seed;
    static char *names[] = {"seed", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O:Dice", names, &seed)) return NULL;
    if (!PyLong_CheckExact(seed)) { /* an int, as dice.py's PyDice takes */
        PyErr_SetString(PyExc_TypeError, "Dice's seed is a whole number");
        return NULL;
    }
    unsigned long long s = PyLong_AsUnsignedLongLongMask(seed); /* the seed mod 2**64 */
    if (s == (unsigned long long)-1 && PyErr_Occurred()) return NULL;
    DiceObject *d = (DiceObject *)type->tp_alloc(type, 0);
    if (d == NULL) return NULL;
    d->s = (uint64_t)s;
    return (PyObject *)d;
}

static PyObject *dice_random(DiceObject *d, PyObject *unused) {
    return PyFloat_FromDouble(dice_next(d));
}

static PyObject *dice_getstate(DiceObject *d, PyObject *unused) {
    return PyLong_FromUnsignedLongLong(d->s);
}

static PyMethodDef dice_methods[] = {
    {"random", (PyCFunction)dice_random, METH_NOARGS, "The next number, in [0, 1)."},
    {"getstate", (PyCFunction)dice_getstate, METH_NOARGS, "The state: a number below 2**64."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject DiceType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "fido.engine._core.Dice",
    .tp_basicsize = sizeof(DiceObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Dice(seed): SplitMix64, the searches' rollouts' generator (fido.engine.dice).",
    .tp_new = dice_new,
    .tp_methods = dice_methods,
};

/* rand's Dice, when rand is a Dice's bound random (drawn inline, no call) */
static DiceObject *dice_of(PyObject *rand) {
    if (PyCFunction_Check(rand)) {
        PyObject *self = PyCFunction_GET_SELF(rand);
        if (self != NULL && Py_TYPE(self) == &DiceType) return (DiceObject *)self;
    }
    return NULL;
}

/* a random number from the generator, as rollout.py's rand(); -1.0 on an error */
static double draw_random(State *st) {
    if (st->dice != NULL) return dice_next(st->dice);
    PyObject *r = PyObject_CallNoArgs(st->rand);
    if (r == NULL) return -1.0;
    double x = PyFloat_AsDouble(r);
    Py_DECREF(r);
    if (x == -1.0 && PyErr_Occurred()) return -1.0;
    return x;
}

/* table.py's covered and adds */
static long long covered(const State *st, int code, int weight) {
    long long s = st->ends_sum - weight;
    if (st->spinner >= 0 && code < 4 && st->arms == 1) s -= 2 * st->spinner;
    return s;
}

static long long adds(const State *st, int v, int w) {
    if (w == v) return st->shape == INLINE ? v : 2 * v;
    return w;
}

static int open_slot(State *st, int code, int v, int weight) {
    if (st->nopen >= MAX_OPEN) {
        PyErr_SetString(PyExc_OverflowError, "too many open slots for the native playout");
        return -1;
    }
    int i = st->nopen++;
    st->code[i] = code; st->val[i] = v; st->weight[i] = weight;
    return 0;
}

static int placed(State *st, int seat, int v, int w, long long s);

/* table.py's attach of the tile (v, w) on the open slot at index i, then game.py's _place */
static int place(State *st, int i, int w) {
    int seat = st->turn;
    int code = st->code[i], v = st->val[i], weight = st->weight[i];
    int base = st->laid * 4, port = code & 3;
    /* the slot is taken: the later ones keep their order (a dict's insertion order) */
    for (int j = i + 1; j < st->nopen; j++) {
        st->code[j - 1] = st->code[j]; st->val[j - 1] = st->val[j];
        st->weight[j - 1] = st->weight[j];
    }
    st->nopen--;
    long long s = st->ends_sum - weight;
    if (st->spinner >= 0 && code < 4) {
        st->arms += 1;
        if (st->arms == 2) {
            s -= 2 * st->spinner;
            st->spinner = -1;
        }
    }
    if (w == v) {
        if (st->shape == CROSS) {
            int back = (port + 2) & 3;
            for (int p = 0; p < 4; p++) {
                if (p == port) {
                    if (open_slot(st, base + p, v, 0) /* the free side */ < 0) return -1;
                } else if (p != back) {
                    if (open_slot(st, base + p, v, v) < 0) return -1;
                }
            }
            s += 2 * v;
        } else if (st->shape == INLINE) {
            if (open_slot(st, base + port, v, v) < 0) return -1;
            s += v;
        } else {
            if (open_slot(st, base + port, v, 2 * v) < 0) return -1;
            s += 2 * v;
        }
    } else {
        if (open_slot(st, base + port, w, w) < 0) return -1;
        s += w;
    }
    return placed(st, seat, v, w, s);
}

/* game.py's _place once the table took the tile (v, w) of seat and its sum is s */
static int placed(State *st, int seat, int v, int w, long long s) {
    st->ends_sum = s;
    st->laid += 1;
    st->bv[seat][v] ^= 1u << w;
    if (v != w) st->bv[seat][w] ^= 1u << v;
    st->count[seat] -= 1;
    if (st->d > 0 && s % st->d == 0) st->scores[seat] += s / st->d;
    st->passes = 0;
    if (st->count[seat] == 0) {
        st->over = 1; st->blocked = 0; st->out_seat = seat;
    } else {
        st->turn = next_seat(st, seat);
    }
    return 0;
}

/* the k-th placement in the generator's order (rollout.py's _place_nth) */
static int place_nth(State *st, int k) {
    const uint32_t *mine = st->bv[st->turn];
    for (int i = 0; i < st->nopen; i++) {
        uint32_t m = mine[st->val[i]];
        if (!m) continue;
        int c = popcount(m);
        if (k >= c) { k -= c; continue; }
        while (k) { m &= m - 1; k--; }
        return place(st, i, lowest(m));
    }
    PyErr_SetString(PyExc_AssertionError, "a counted move was not found");
    return -1;
}

/* nothing to place: game.py's _draw (with the stock's order) or _pass */
static int draw_or_pass(State *st) {
    int seat = st->turn;
    if (st->stuck != PASS_ONLY && st->stock_count > st->keep) {
        PyObject *tile = PyTuple_GetItem(st->order, (Py_ssize_t)st->stock_pos);
        if (tile == NULL) return -1;
        PyObject *ho = attr(tile, A_HIGH);
        if (ho == NULL) return -1;
        PyObject *lo = attr(tile, A_LOW);
        if (lo == NULL) { Py_DECREF(ho); return -1; }
        long high = PyLong_AsLong(ho), low = PyLong_AsLong(lo);
        Py_DECREF(ho); Py_DECREF(lo);
        if (PyErr_Occurred()) return -1;
        if (high < 0 || low < 0 || high > MAX_VALUE || low > MAX_VALUE) {
            PyErr_SetString(PyExc_ValueError, "a stock tile outside the set");
            return -1;
        }
        st->stock_count -= 1;
        st->stock_pos += 1;
        st->bv[seat][high] |= 1u << low;
        st->bv[seat][low] |= 1u << high;
        st->count[seat] += 1;
        st->passes = 0;
        if (st->stuck == DRAW_ONE) st->turn = next_seat(st, seat);
        return 0;
    }
    st->passes += 1;
    if (st->passes >= st->players) {
        st->over = 1; st->blocked = 1; st->out_seat = -1;
    } else {
        st->turn = next_seat(st, seat);
    }
    return 0;
}

/* rollout.py's _fast_turn: greedy's best with probability greedy, else a random move */
static int random_turn(State *st, double greedy) {
    const uint32_t *mine = st->bv[st->turn];
    int d = st->d, n = 0;
    long long best_key = -1;
    int best_i = -1, best_w = -1;
    if (greedy > 0.0) {
        for (int i = 0; i < st->nopen; i++) {
            int v = st->val[i];
            uint32_t m = mine[v];
            if (!m) continue;
            long long lead = covered(st, st->code[i], st->weight[i]);
            while (m) {
                int w = lowest(m);
                m &= m - 1;
                n++;
                long long s = lead + adds(st, v, w);
                long long pts = (d > 0 && s % d == 0) ? s / d : 0;
                long long key = pts * 1024 + v + w;
                if (key > best_key) { best_key = key; best_i = i; best_w = w; }
            }
        }
    } else {
        for (int i = 0; i < st->nopen; i++) n += popcount(mine[st->val[i]]);
    }
    if (n == 0) return draw_or_pass(st);
    if (n > 1) {
        int random_move = greedy <= 0.0;
        if (!random_move) {
            double r = draw_random(st);
            if (r < 0.0) return -1;
            random_move = r >= greedy;
        }
        if (random_move) {
            double r = draw_random(st);
            if (r < 0.0) return -1;
            return place_nth(st, (int)(r * n));
        }
    }
    if (best_i < 0) return place_nth(st, 0);
    return place(st, best_i, best_w);
}

/* rollout.py's _smart_turn: the expert's main terms, the same keys in the same order */
static int smart_turn(State *st, double explore, const int *partner, double spare) {
    int seat = st->turn, d = st->d;
    const uint32_t *mine = st->bv[seat];
    int nxt = next_seat(st, seat);
    const uint32_t *theirs = (nxt != partner[seat] && nxt != seat) ? st->bv[nxt] : NULL;
    int n = 0;
    uint64_t replies = 0;
    for (int i = 0; i < st->nopen; i++) {
        int v = st->val[i], weight = st->weight[i];
        uint32_t m = mine[v];
        if (m) n += popcount(m);
        if (theirs != NULL) {
            uint32_t bits = theirs[v];
            while (bits) {
                int w = lowest(bits);
                bits &= bits - 1;
                long long r = w == v ? 2 * v - weight : w - weight;
                replies |= (uint64_t)1 << pymod(r, d);
            }
        }
    }
    if (n == 0) return draw_or_pass(st);
    if (n == 1) return place_nth(st, 0);
    if (explore > 0.0) {
        double r = draw_random(st);
        if (r < 0.0) return -1;
        if (r < explore) {
            double k = draw_random(st);
            if (k < 0.0) return -1;
            return place_nth(st, (int)(k * n));
        }
    }
    long long base = st->ends_sum;
    double scale = (double)base / d;
    if (!(scale > 1.0)) scale = 1.0; /* max(1.0, base / d) */
    double best_key = -1e18;
    int best_i = -1, best_w = -1;
    for (int i = 0; i < st->nopen; i++) {
        int v = st->val[i];
        uint32_t m = mine[v];
        if (!m) continue;
        long long lead = covered(st, st->code[i], st->weight[i]);
        while (m) {
            int w = lowest(m);
            m &= m - 1;
            long long s = lead + adds(st, v, w);
            long long rest = s % d;
            long long pts = rest == 0 ? s / d : 0;
            double key = (double)pts + W_HEAVY * (double)(v + w);
            if (w == v) {
                if (pts == 0 && v % d == 0) key -= W_JOKER * scale;
                int left = -1;
                for (int h = 0; h < st->players; h++) left += popcount(st->bv[h][v]);
                key += W_DOUBLE * scale / (1.0 + left / 3.0);
            } else if (pts == 0 && (v - w) % d == 0) {
                key -= W_JOKER * scale;
            }
            if (replies && ((replies >> (rest ? d - rest : 0)) & 1)) {
                double ratio = (double)s / d;
                key -= W_SPARE * spare * (ratio > 1.0 ? ratio : 1.0);
            }
            if (key > best_key) { best_key = key; best_i = i; best_w = w; }
        }
    }
    return place(st, best_i, best_w);
}

/* ------------------------------------------------------------------ reading the game */

static int get_long(PyObject *obj, int name, long long *out) {
    PyObject *x = attr(obj, name);
    if (x == NULL) return -1;
    long long v = PyLong_AsLongLong(x);
    Py_DECREF(x);
    if (v == -1 && PyErr_Occurred()) return -1;
    *out = v;
    return 0;
}

/* a small whole number field, refused (1: play it in Python) outside [lo, hi] */
static int get_int(PyObject *obj, int name, int lo, int hi, int *out) {
    long long v;
    if (get_long(obj, name, &v) < 0) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError)) return -1;
        PyErr_Clear();
        return 1;
    }
    if (v < lo || v > hi) return 1;
    *out = (int)v;
    return 0;
}

/* 0: read; 1: a game this file does not play (the caller plays on in Python); -1: error */
static int load(State *st, PyObject *game) {
    int rc;
    PyObject *table = NULL, *open = NULL, *by_value = NULL, *scores = NULL, *x = NULL;
#define INT(obj, name, lo, hi, dst) \
    { int got_ = get_int(obj, name, lo, hi, dst); if (got_ != 0) { rc = got_; goto done; } }
    rc = -1;
    INT(game, A_PLAYERS, 1, MAX_SEATS, &st->players)
    INT(game, A_TURN, 0, st->players - 1, &st->turn)
    INT(game, A_PASSES, 0, st->players, &st->passes)
    INT(game, A_DIVISOR, 0, 1000000, &st->d)
    INT(game, A_CLOCKWISE, 0, 1, &st->clockwise)
    INT(game, A_STUCK, PASS_ONLY, DRAW_UNTIL, &st->stuck)
    INT(game, A_KEEP_IN_STOCK, 0, 1 << 20, &st->keep)
    int theresa, pending;
    INT(game, A_MOTHER_THERESA, 0, 0, &theresa)
    INT(game, A_PENDING, -1, -1, &pending)
    x = attr(game, A_OUTCOME);
    if (x == NULL) goto done;
    if (x != Py_None) { rc = 1; goto done; }
    Py_CLEAR(x);
    if (get_long(game, A_STOCK_COUNT, &st->stock_count) < 0) goto done;
    if (get_long(game, A_STOCK_POS, &st->stock_pos) < 0) goto done;
    st->order = NULL;
    x = attr(game, A_ORDER);
    if (x == NULL) goto done;
    if (!PyTuple_Check(x)) { rc = 1; goto done; }
    /* a draw with no order waits for its tile: Python's playout says so */
    if (st->stuck != PASS_ONLY && st->stock_count > st->keep
        && PyTuple_GET_SIZE(x) < st->stock_pos + st->stock_count) {
        rc = 1;
        goto done;
    }
    st->order = x; /* the game holds it while we play */
    table = attr(game, A_TABLE);
    if (table == NULL) goto done;
    INT(table, A_SHAPE, CROSS, SPINNER, &st->shape)
    INT(table, A_SPINNER, -1, MAX_VALUE, &st->spinner)
    INT(table, A_ARMS_TAKEN, 0, 4, &st->arms)
    if (get_long(table, A_ENDS_SUM, &st->ends_sum) < 0) goto done;
    PyObject *placements = attr(table, A_PLACEMENTS);
    if (placements == NULL) goto done;
    st->laid = (int)PyObject_Length(placements);
    Py_DECREF(placements);
    if (st->laid < 0) goto done;
    /* the slot rules of the first moves (table.py's slot_filter) stay in Python */
    if (st->laid == 0 || (st->laid < 5 && (st->shape == CROSS || st->shape == SPINNER))) {
        rc = 1;
        goto done;
    }
    open = attr(table, A_OPEN);
    if (open == NULL) goto done;
    if (!PyDict_Check(open)) { rc = 1; goto done; }
    st->nopen = 0;
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    while (PyDict_Next(open, &pos, &key, &value)) {
        if (st->nopen >= MAX_OPEN || !PyTuple_Check(value) || PyTuple_GET_SIZE(value) != 3) {
            rc = 1;
            goto done;
        }
        long code = PyLong_AsLong(key);
        long v = PyLong_AsLong(PyTuple_GET_ITEM(value, 0));
        long weight = PyLong_AsLong(PyTuple_GET_ITEM(value, 2));
        if (PyErr_Occurred()) goto done;
        if (v < 0 || v > MAX_VALUE || code < 0 || code > (1L << 28)) { rc = 1; goto done; }
        int i = st->nopen++;
        st->code[i] = (int)code; st->val[i] = (int)v;
        st->weight[i] = (int)weight;
    }
    by_value = attr(game, A_BY_VALUE);
    scores = attr(game, A_SCORES);
    if (by_value == NULL || scores == NULL) goto done;
    if (!PyList_Check(by_value) || !PyList_Check(scores)) { rc = 1; goto done; }
    if (PyList_GET_SIZE(by_value) != st->players || PyList_GET_SIZE(scores) != st->players) {
        rc = 1;
        goto done;
    }
    for (int seat = 0; seat < st->players; seat++) {
        PyObject *row = PyList_GET_ITEM(by_value, seat);
        if (!PyList_Check(row) || PyList_GET_SIZE(row) > MAX_VALUE + 1) { rc = 1; goto done; }
        Py_ssize_t width = PyList_GET_SIZE(row);
        int bits = 0, doubles = 0;
        for (int v = 0; v <= MAX_VALUE; v++) {
            uint32_t m = 0;
            if (v < width) {
                unsigned long long u = PyLong_AsUnsignedLongLong(PyList_GET_ITEM(row, v));
                if (u == (unsigned long long)-1 && PyErr_Occurred()) goto done;
                if (u >> (MAX_VALUE + 1)) { rc = 1; goto done; }
                m = (uint32_t)u;
            }
            st->bv[seat][v] = m;
            bits += popcount(m);
            doubles += (m >> v) & 1;
        }
        st->count[seat] = (bits + doubles) / 2; /* a tile is two bits, a double one */
        long long sc = PyLong_AsLongLong(PyList_GET_ITEM(scores, seat));
        if (sc == -1 && PyErr_Occurred()) goto done;
        st->scores[seat] = sc;
    }
    st->over = 0;
    rc = 0;
done:
#undef INT
    if (rc != 0) Py_XDECREF(x);
    Py_XDECREF(table);
    Py_XDECREF(open);
    Py_XDECREF(by_value);
    Py_XDECREF(scores);
    if (rc == 1 && PyErr_Occurred()) rc = -1;
    return rc;
}

/* what the end's scoring needs: (points, pips left, blocked, the seat that went out or -1) */
static PyObject *result(const State *st) {
    PyObject *points = PyList_New(st->players), *pips = PyList_New(st->players);
    if (points == NULL || pips == NULL) goto fail;
    for (int seat = 0; seat < st->players; seat++) {
        long long total = 0;
        for (int v = 0; v <= MAX_VALUE; v++) {
            uint32_t m = st->bv[seat][v] & ((2u << v) - 1); /* each tile once: w <= v */
            while (m) {
                total += v + lowest(m);
                m &= m - 1;
            }
        }
        PyObject *p = PyLong_FromLongLong(st->scores[seat]);
        PyObject *q = PyLong_FromLongLong(total);
        if (p == NULL || q == NULL) { Py_XDECREF(p); Py_XDECREF(q); goto fail; }
        PyList_SET_ITEM(points, seat, p);
        PyList_SET_ITEM(pips, seat, q);
    }
    return Py_BuildValue("(NNOi)", points, pips, st->blocked ? Py_True : Py_False, st->out_seat);
fail:
    Py_XDECREF(points);
    Py_XDECREF(pips);
    return NULL;
}

static PyObject *finish(PyObject *module, PyObject *args) {
    PyObject *game, *rand, *partner_list;
    int policy;
    double param, spare;
    if (!PyArg_ParseTuple(args, "OOidO!d", &game, &rand, &policy, &param, &PyList_Type,
                          &partner_list, &spare))
        return NULL;
    State *st = PyMem_Malloc(sizeof(State));
    if (st == NULL) return PyErr_NoMemory();
    PyObject *out = NULL;
    int rc = load(st, game);
    if (rc != 0) {
        PyMem_Free(st);
        if (rc < 0) return NULL;
        Py_RETURN_NONE;
    }
    int partner[MAX_SEATS];
    for (int i = 0; i < st->players; i++) {
        long p = i < PyList_GET_SIZE(partner_list)
            ? PyLong_AsLong(PyList_GET_ITEM(partner_list, i)) : -1;
        if (p == -1 && PyErr_Occurred()) goto end;
        partner[i] = (int)p;
    }
    if (policy == SMART && (st->d < 1 || st->d > MAX_DIVISOR)) {
        out = Py_None;
        Py_INCREF(out);
        goto end;
    }
    st->rand = rand;
    st->dice = dice_of(rand);
    while (!st->over) {
        int err = policy == SMART ? smart_turn(st, param, partner, spare)
                                  : random_turn(st, param);
        if (err < 0) goto end;
    }
    out = result(st);
end:
    Py_XDECREF(st->order);
    PyMem_Free(st);
    return out;
}

/* ------------------------------------------------------------------ the game's kernel
 *
 * A game dealt fresh (Game.new, Game.from_deal) on a FIDO table (the cross layout, no
 * Mother Theresa, no drawing beside placing, a divisor or no scoring, the stock's
 * order held) is played on this state while nobody asks for more than its legal moves,
 * the move to make and whose turn it is: game.py's legal_moves and push hand them here.
 * The moves made are kept; the first time anything else is read, game.py plays them
 * again in Python (Game._sync) and goes on there, so the Python state stays the one
 * that everything else reads. The legal moves are the same objects, in the same order,
 * as movegen.generate's (the interned rows, the opening placement, DRAW or PASS);
 * tests/engine/test_native.py plays both side by side.
 */

/* tiles.py's tile ids: tile a-b (a >= b) is a * (a + 1) / 2 + b in every set */
#define MAX_TILES ((MAX_VALUE + 1) * (MAX_VALUE + 2) / 2)
static int TILE_HIGH[MAX_TILES], TILE_LOW[MAX_TILES];
static int pair_id(int v, int w) { return v >= w ? v * (v + 1) / 2 + w : w * (w + 1) / 2 + v; }

typedef struct {
    PyObject_HEAD
    State st;
    PyObject *moves;   /* the moves made, in order (the canonical objects) */
    PyObject *rows;    /* movegen._ROWS: rows[slot code][tile id] is that placement */
    PyObject *grow;    /* grow(codes, dominoes): makes rows[0 .. codes - 1] hold every tile */
    PyObject *dominoes;
    PyObject *opening; /* the opening placement */
    PyObject *draw, *pass;
    int opening_value; /* the opening double's number */
    int tiles;         /* tiles in the set */
} Kernel;

static void kernel_dealloc(Kernel *k) {
    Py_XDECREF(k->st.order);
    Py_XDECREF(k->moves);
    Py_XDECREF(k->rows);
    Py_XDECREF(k->grow);
    Py_XDECREF(k->dominoes);
    Py_XDECREF(k->opening);
    Py_XDECREF(k->draw);
    Py_XDECREF(k->pass);
    Py_TYPE(k)->tp_free((PyObject *)k);
}

/* the cross layout's opening double (table.py's place with code -1), then _place */
static int open_table(State *st, int v) {
    int seat = st->turn;
    if (open_slot(st, 0, v, 0) < 0 || open_slot(st, 1, v, v) < 0
        || open_slot(st, 2, v, 0) < 0 || open_slot(st, 3, v, v) < 0)
        return -1;
    return placed(st, seat, v, v, 2 * (long long)v);
}

/* whether open slot i may take a tile now: the second tile goes on a side of the
 * opening double (table.py's slot_filter; on the cross its sides are ports n and s) */
static int slot_allowed(const State *st, int i) {
    return st->laid != 1 || (st->code[i] & 1) == 0;
}

/* the interned rows grown to cover this table: rows[code] for every open slot's code */
static int ensure_rows(Kernel *k) {
    Py_ssize_t codes = 4 * (Py_ssize_t)k->st.laid;
    if (codes == 0) return 0;
    if (PyList_GET_SIZE(k->rows) < codes
        || PyList_GET_SIZE(PyList_GET_ITEM(k->rows, 0)) < k->tiles) {
        PyObject *r = PyObject_CallFunction(k->grow, "nO", codes, k->dominoes);
        if (r == NULL) return -1;
        Py_DECREF(r);
        if (PyList_GET_SIZE(k->rows) < codes) {
            PyErr_SetString(PyExc_ValueError, "the interned placements do not cover this table");
            return -1;
        }
    }
    return 0;
}

/* rows[code], checked: the rows are trusted no further than their shape */
static PyObject *row_of(Kernel *k, int code) {
    PyObject *row = PyList_GET_ITEM(k->rows, code);
    if (!PyList_Check(row) || PyList_GET_SIZE(row) < k->tiles) {
        PyErr_SetString(PyExc_ValueError, "the interned placements do not cover this table");
        return NULL;
    }
    return row;
}

/* how many placements the seat to move has (the cross's second tile: on a side) */
static Py_ssize_t count_placements(const State *st) {
    const uint32_t *mine = st->bv[st->turn];
    Py_ssize_t n = 0;
    for (int i = 0; i < st->nopen; i++) {
        if (slot_allowed(st, i)) n += popcount(mine[st->val[i]]);
    }
    return n;
}

static int draws(const State *st) {
    return st->stuck != PASS_ONLY && st->stock_count > st->keep;
}

static PyObject *one_move(PyObject *move) {
    PyObject *list = PyList_New(1);
    if (list != NULL) {
        Py_INCREF(move);
        PyList_SET_ITEM(list, 0, move);
    }
    return list;
}

/* legal() -> a new list of the legal moves, in movegen.generate's order: the opening
 * placement alone, else the placements by open slot (in the order opened) and by tile,
 * else DRAW or PASS */
static PyObject *kernel_legal(Kernel *k, PyObject *unused) {
    State *st = &k->st;
    if (st->over) return PyList_New(0);
    if (st->laid == 0) return one_move(k->opening);
    if (ensure_rows(k) < 0) return NULL;
    Py_ssize_t n = count_placements(st);
    if (n == 0) return one_move(draws(st) ? k->draw : k->pass);
    PyObject *list = PyList_New(n);
    if (list == NULL) return NULL;
    const uint32_t *mine = st->bv[st->turn];
    n = 0;
    for (int i = 0; i < st->nopen; i++) {
        int v = st->val[i];
        uint32_t m = mine[v];
        if (!m || !slot_allowed(st, i)) continue;
        PyObject *row = row_of(k, st->code[i]);
        if (row == NULL) { Py_DECREF(list); return NULL; }
        while (m) {
            PyObject *move = PyList_GET_ITEM(row, pair_id(v, lowest(m)));
            m &= m - 1;
            Py_INCREF(move);
            PyList_SET_ITEM(list, n++, move);
        }
    }
    return list;
}

/* a Tile's id, from a cache by address (tiles are interned and live as long as the
 * process; the cache holds a reference to each anyway); -1 for no tile of a set here */
#define TILE_CACHE 1024
static PyObject *tile_keys[TILE_CACHE];
static int tile_ids[TILE_CACHE];
static int tiles_cached;
static PyObject *ID_NAME;

static int tile_id_of(PyObject *tile) {
    size_t h = ((uintptr_t)tile >> 4) & (TILE_CACHE - 1);
    while (tile_keys[h] != NULL) {
        if (tile_keys[h] == tile) return tile_ids[h];
        h = (h + 1) & (TILE_CACHE - 1);
    }
    PyObject *x = PyObject_GetAttr(tile, ID_NAME);
    if (x == NULL) { PyErr_Clear(); return -1; }
    long id = PyLong_Check(x) ? PyLong_AsLong(x) : -1;
    Py_DECREF(x);
    if (id == -1 && PyErr_Occurred()) PyErr_Clear();
    if (id < 0 || id >= MAX_TILES) return -1;
    if (tiles_cached < TILE_CACHE / 2) {
        Py_INCREF(tile);
        tile_keys[h] = tile;
        tile_ids[h] = (int)id;
        tiles_cached++;
    }
    return (int)id;
}

/* push(move) -> the seat to move next; -1 when the hand ends; -2 when the move is not
 * one of the legal moves, or not one this reads (game.py then goes on in Python, which
 * explains a refusal); -3 when the hand was over. The move made is the legal one equal
 * to `move` (movegen's interned object), as game.py's push keeps it. */
static PyObject *kernel_push(Kernel *k, PyObject *move) {
    State *st = &k->st;
    if (st->over) return PyLong_FromLong(-3);
    if (ensure_rows(k) < 0) return NULL;
    PyObject *made = NULL;
    int at = -1, other = -1;
    if (move == k->draw || move == k->pass) {
        if (st->laid > 0 && count_placements(st) == 0 && (move == k->draw) == draws(st))
            made = move;
    } else if (Py_TYPE(move) == Py_TYPE(k->opening) && PyTuple_GET_SIZE(move) == 3) {
        PyObject *tile = PyTuple_GET_ITEM(move, 0);
        long anchor = PyLong_Check(PyTuple_GET_ITEM(move, 1))
            ? PyLong_AsLong(PyTuple_GET_ITEM(move, 1)) : -2;
        long port = PyLong_Check(PyTuple_GET_ITEM(move, 2))
            ? PyLong_AsLong(PyTuple_GET_ITEM(move, 2)) : -2;
        if (PyErr_Occurred()) { /* out of range: no move of this game */
            PyErr_Clear();
            anchor = port = -2;
        }
        if (st->laid == 0) {
            if (anchor == -1 && port == -1 && tile == PyTuple_GET_ITEM(k->opening, 0))
                made = k->opening;
        } else if (anchor >= 0 && anchor < st->laid && port >= 0 && port <= 3
                   && Py_TYPE(tile) == Py_TYPE(PyTuple_GET_ITEM(k->opening, 0))) {
            int id = tile_id_of(tile), code = (int)(anchor * 4 + port);
            for (int i = 0; id >= 0 && id < k->tiles && i < st->nopen; i++) {
                if (st->code[i] != code) continue;
                int v = st->val[i], high = TILE_HIGH[id], low = TILE_LOW[id];
                int w = high == v ? low : low == v ? high : -1;
                if (w >= 0 && slot_allowed(st, i) && ((st->bv[st->turn][v] >> w) & 1)) {
                    PyObject *row = row_of(k, code);
                    if (row == NULL) return NULL;
                    made = PyList_GET_ITEM(row, id);
                    at = i;
                    other = w;
                }
                break;
            }
        }
    }
    if (made == NULL) return PyLong_FromLong(-2);
    int err;
    if (made == k->draw || made == k->pass) err = draw_or_pass(st);
    else if (st->laid == 0) err = open_table(st, k->opening_value);
    else err = place(st, at, other);
    if (err < 0 || PyList_Append(k->moves, made) < 0) return NULL;
    return PyLong_FromLong(st->over ? -1 : st->turn);
}

static PyObject *kernel_moves(Kernel *k, PyObject *unused) {
    return PyList_GetSlice(k->moves, 0, PY_SSIZE_T_MAX);
}

static PyObject *kernel_result(Kernel *k, PyObject *unused) {
    if (!k->st.over) {
        PyErr_SetString(PyExc_ValueError, "the hand is not over");
        return NULL;
    }
    return result(&k->st);
}

static PyMethodDef kernel_methods[] = {
    {"legal", (PyCFunction)kernel_legal, METH_NOARGS, "A new list of the legal moves."},
    {"push", (PyCFunction)kernel_push, METH_O,
     "Make a move: the next seat, -1 when the hand ends, -2 for a move not legal here."},
    {"moves", (PyCFunction)kernel_moves, METH_NOARGS, "The moves made, in order."},
    {"result", (PyCFunction)kernel_result, METH_NOARGS,
     "(points, pips, blocked, out_seat) of the hand that ended."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject KernelType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "fido.engine._core.Kernel",
    .tp_basicsize = sizeof(Kernel),
    .tp_dealloc = (destructor)kernel_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A fresh FIDO game's state on machine integers (game.py's fast path).",
    .tp_methods = kernel_methods,
};

/* a hand's bitmask of tile ids (tiles.py) by value, into bv (bv[v]: the w with v-w in
 * hand) and count; -1 with a ValueError for anything but a bitmask of tile ids below tiles */
static int read_hand(PyObject *mask, int tiles, uint32_t *bv, int *count) {
    unsigned char bytes[(MAX_TILES + 7) / 8]; /* lowest first */
    if (!PyLong_Check(mask)
        || _PyLong_AsByteArray((PyLongObject *)mask, bytes, sizeof bytes, 1, 0) < 0) {
        if (!PyErr_Occurred() || PyErr_ExceptionMatches(PyExc_OverflowError)) {
            PyErr_Clear();
            PyErr_SetString(PyExc_ValueError, "a hand is a bitmask of the set's tiles");
        }
        return -1;
    }
    memset(bv, 0, sizeof(uint32_t) * (MAX_VALUE + 1));
    *count = 0;
    for (int j = 0; j < (int)sizeof bytes; j += 8) {
        uint64_t word = 0;
        for (int b = 0; b < 8 && j + b < (int)sizeof bytes; b++)
            word |= (uint64_t)bytes[j + b] << (8 * b);
        while (word) {
            int id = j * 8 + __builtin_ctzll(word);
            word &= word - 1;
            if (id >= tiles) {
                PyErr_SetString(PyExc_ValueError, "a hand holds a tile outside the set");
                return -1;
            }
            bv[TILE_HIGH[id]] |= 1u << TILE_LOW[id];
            bv[TILE_LOW[id]] |= 1u << TILE_HIGH[id];
            *count += 1;
        }
    }
    return 0;
}

static int as_list_of(PyObject *obj, Py_ssize_t size) {
    if (!PyList_Check(obj) || PyList_GET_SIZE(obj) != size) {
        PyErr_SetString(PyExc_ValueError, "a list of the wrong size");
        return -1;
    }
    return 0;
}

/* kernel(players, turn, divisor, clockwise, stuck, keep, hands, order, opening,
 *        opening_value, rows, grow, dominoes, tiles, draw, pass) */
static PyObject *kernel_new(PyObject *module, PyObject *args) {
    int players, turn, d, clockwise, stuck, keep, opening_value, tiles;
    PyObject *hands, *order, *opening, *rows, *grow, *dominoes, *draw, *pass;
    if (!PyArg_ParseTuple(args, "iiiiiiO!O!O!iO!OOiOO", &players, &turn, &d, &clockwise,
                          &stuck, &keep, &PyList_Type, &hands, &PyTuple_Type, &order,
                          &PyTuple_Type, &opening, &opening_value, &PyList_Type, &rows, &grow,
                          &dominoes, &tiles, &draw, &pass))
        return NULL;
    if (players < 1 || players > MAX_SEATS || turn < 0 || turn >= players || d < 0
        || stuck < PASS_ONLY || stuck > DRAW_UNTIL || keep < 0 || opening_value < 0
        || opening_value > MAX_VALUE || tiles < 1
        || tiles > MAX_TILES || PyTuple_GET_SIZE(opening) != 3
        || as_list_of(hands, players) < 0) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "not a game the kernel plays");
        return NULL;
    }
    Kernel *k = PyObject_New(Kernel, &KernelType);
    if (k == NULL) return NULL;
    State *st = &k->st;
    k->moves = PyList_New(0);
    k->rows = rows; k->grow = grow; k->dominoes = dominoes; k->opening = opening;
    k->draw = draw; k->pass = pass;
    st->order = order;
    Py_INCREF(rows); Py_INCREF(grow); Py_INCREF(dominoes); Py_INCREF(opening);
    Py_INCREF(draw); Py_INCREF(pass);
    Py_INCREF(order);
    if (k->moves == NULL) { Py_DECREF(k); return NULL; }
    k->opening_value = opening_value;
    k->tiles = tiles;
    st->players = players; st->turn = turn; st->passes = 0; st->d = d;
    st->clockwise = clockwise != 0; st->stuck = stuck; st->keep = keep; st->shape = CROSS;
    st->laid = 0; st->ends_sum = 0; st->spinner = -1; st->arms = 0; st->nopen = 0;
    st->stock_count = PyTuple_GET_SIZE(order); st->stock_pos = 0;
    st->rand = NULL; st->dice = NULL; st->over = 0; st->blocked = 0; st->out_seat = -1;
    for (int seat = 0; seat < players; seat++) {
        st->scores[seat] = 0;
        if (read_hand(PyList_GET_ITEM(hands, seat), tiles, st->bv[seat], &st->count[seat]) < 0) {
            Py_DECREF(k);
            return NULL;
        }
    }
    return (PyObject *)k;
}

/* ------------------------------------------------------------------ dealing
 *
 * dealing.py's shuffle and hand building for one deal, the same tiles in the same
 * order from the same random numbers (tests/engine/test_kernel.py compares them):
 * Fisher-Yates with j = int(random() * (i + 1)), then each hand as a bitmask of tile ids
 * and by value. dealing.deal calls it for a plain random.Random and sets up to double-21.
 */

/* deal(tiles, random, players, size, width, index) -> (hands, by_value or None when not
 * index, a double dealt) */
static PyObject *deal(PyObject *module, PyObject *args) {
    PyObject *tiles, *rand;
    int players, size, width, index;
    if (!PyArg_ParseTuple(args, "O!Oiiip", &PyList_Type, &tiles, &rand, &players, &size, &width,
                          &index))
        return NULL;
    /* random.Random's random, called without the call protocol's dispatch */
    PyCFunction direct = NULL;
    if (PyCFunction_Check(rand) && PyCFunction_GET_FLAGS(rand) == METH_NOARGS)
        direct = PyCFunction_GET_FUNCTION(rand);
    Py_ssize_t n = PyList_GET_SIZE(tiles);
    if (n > MAX_TILES || players < 1 || players > MAX_SEATS || size < 0
        || (Py_ssize_t)players * size > n || width < 1 || width > MAX_VALUE + 1) {
        PyErr_SetString(PyExc_ValueError, "not a deal of a set up to double-21");
        return NULL;
    }
    for (Py_ssize_t i = n - 1; i > 0; i--) {
        PyObject *r = direct != NULL ? direct(PyCFunction_GET_SELF(rand), NULL)
                                     : PyObject_CallNoArgs(rand);
        if (r == NULL) return NULL;
        double x = PyFloat_AsDouble(r);
        Py_DECREF(r);
        if (x == -1.0 && PyErr_Occurred()) return NULL;
        Py_ssize_t j = (Py_ssize_t)(x * (double)(i + 1));
        if (j < 0 || j > i) {
            PyErr_SetString(PyExc_ValueError, "random() gave a number outside [0, 1)");
            return NULL;
        }
        PyObject *a = PyList_GET_ITEM(tiles, i);
        PyList_SET_ITEM(tiles, i, PyList_GET_ITEM(tiles, j));
        PyList_SET_ITEM(tiles, j, a);
    }
    unsigned char bytes[(MAX_TILES + 7) / 8];
    uint32_t bv[MAX_VALUE + 1];
    int has_double = 0;
    PyObject *hands = PyList_New(players), *by_value = Py_None;
    if (index) by_value = PyList_New(players);
    else Py_INCREF(Py_None);
    if (hands == NULL || by_value == NULL) goto fail;
    Py_ssize_t k = 0;
    for (int seat = 0; seat < players; seat++) {
        memset(bytes, 0, sizeof bytes);
        memset(bv, 0, sizeof bv);
        for (int t = 0; t < size; t++, k++) {
            int id = tile_id_of(PyList_GET_ITEM(tiles, k));
            if (id < 0 || TILE_HIGH[id] >= width) {
                PyErr_SetString(PyExc_ValueError, "a tile outside the set");
                goto fail;
            }
            int high = TILE_HIGH[id], low = TILE_LOW[id];
            bytes[id >> 3] |= (unsigned char)(1u << (id & 7));
            bv[high] |= 1u << low;
            bv[low] |= 1u << high;
            if (high == low) has_double = 1;
        }
        PyObject *mask = _PyLong_FromByteArray(bytes, sizeof bytes, 1, 0);
        if (mask == NULL) goto fail;
        PyList_SET_ITEM(hands, seat, mask);
        if (!index) continue;
        PyObject *row = PyList_New(width);
        if (row == NULL) goto fail;
        PyList_SET_ITEM(by_value, seat, row);
        for (int v = 0; v < width; v++) {
            PyObject *m = PyLong_FromUnsignedLong(bv[v]);
            if (m == NULL) goto fail;
            PyList_SET_ITEM(row, v, m);
        }
    }
    return Py_BuildValue("(NNO)", hands, by_value, has_double ? Py_True : Py_False);
fail:
    Py_XDECREF(hands);
    Py_XDECREF(by_value);
    return NULL;
}

/* index(hands, width) -> each hand (a bitmask of tile ids) by value: game.py's _index */
static PyObject *index_hands(PyObject *module, PyObject *args) {
    PyObject *hands;
    int width;
    if (!PyArg_ParseTuple(args, "O!i", &PyList_Type, &hands, &width)) return NULL;
    if (width < 1 || width > MAX_VALUE + 1) {
        PyErr_SetString(PyExc_ValueError, "not a set up to double-21");
        return NULL;
    }
    Py_ssize_t n = PyList_GET_SIZE(hands);
    PyObject *out = PyList_New(n);
    if (out == NULL) return NULL;
    for (Py_ssize_t seat = 0; seat < n; seat++) {
        uint32_t bv[MAX_VALUE + 1];
        int count;
        if (read_hand(PyList_GET_ITEM(hands, seat), width * (width + 1) / 2, bv, &count) < 0) {
            Py_DECREF(out);
            return NULL;
        }
        PyObject *row = PyList_New(width);
        if (row == NULL) { Py_DECREF(out); return NULL; }
        PyList_SET_ITEM(out, seat, row);
        for (int v = 0; v < width; v++) {
            PyObject *m = PyLong_FromUnsignedLong(bv[v]);
            if (m == NULL) { Py_DECREF(out); return NULL; }
            PyList_SET_ITEM(row, v, m);
        }
    }
    return out;
}

static PyMethodDef methods[] = {
    {"finish", finish, METH_VARARGS,
     "finish(game, rand, policy, param, partner, spare): play the hand to its end on a copy "
     "of its state (policy 0: rollout.playout with greedy=param; 1: smart_playout with "
     "explore=param) and return (points, pips, blocked, out_seat), or None for a game "
     "played in Python."},
    {"deal", deal, METH_VARARGS,
     "deal(tiles, random, players, size, width, index): shuffle tiles in place as "
     "dealing.shuffle does and return (hands, by_value or None, a double dealt) of the first "
     "players * size."},
    {"index", index_hands, METH_VARARGS,
     "index(hands, width): each hand (a bitmask of tile ids) by value, as game.py's _index."},
    {"kernel", kernel_new, METH_VARARGS,
     "kernel(players, turn, divisor, clockwise, stuck, keep, hands, order, opening, "
     "opening_value, rows, grow, dominoes, tiles, draw, pass): a fresh game's Kernel."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "fido.engine._core",
    "The rollouts' playouts in C (fido.engine.rollout hands them over).", -1, methods,
};

PyMODINIT_FUNC PyInit__core(void) {
    for (int a = 0; a <= MAX_VALUE; a++) {
        for (int b = 0; b <= a; b++) {
            TILE_HIGH[pair_id(a, b)] = a;
            TILE_LOW[pair_id(a, b)] = b;
        }
    }
    if (ID_NAME == NULL && (ID_NAME = PyUnicode_InternFromString("id")) == NULL) return NULL;
    for (int i = 0; i < N_ATTRS; i++)
        if (ATTRS[i] == NULL && (ATTRS[i] = PyUnicode_InternFromString(ATTR_NAMES[i])) == NULL)
            return NULL;
    if (PyType_Ready(&KernelType) < 0 || PyType_Ready(&DiceType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    if (PyModule_AddObjectRef(m, "Kernel", (PyObject *)&KernelType) < 0
        || PyModule_AddObjectRef(m, "Dice", (PyObject *)&DiceType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
