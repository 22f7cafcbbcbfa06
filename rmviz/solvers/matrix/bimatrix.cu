// Two-player expected-play regret minimisation on an NVIDIA GPU (rmviz.solvers.matrix.device).
//
// The arithmetic is that of the CPU kernel _run_bimatrix_expected (kernels.py), entry by
// entry: utilities U_0 = P_0 y, U_1 = x P_1; values u_i = pi_i . U_i; instantaneous regrets
// r = U - u with ties (|r| <= 1e-12 max(bound, max|U|), kernels.tie_bounds) exact zeros; guiding regrets
// R <- d_pos R_+ + d_neg R_- + c r (cancellations exact zeros, RM+ clipped at 0); the guide
// R [+ m] (predictive RM+, m = c r); regret matching pi = [guide]_+ / sum, uniform when
// nothing is positive; the averaging-weighted sums of the profile played at the start of the
// iteration (strategies, true external regrets, internal regrets, joint, payoffs, weights).
// Sums run in a different order than on the CPU: iterates agree to rounding.
//
// Two ways to run it:
//  * bimatrix_loop: one thread block per game runs `iterations` iterations in a device loop
//    (small and medium games, and batches of B games of one shape: grid = B);
//  * tile_products + reduce_parts + respond_grid + normalise_grid: a large game's iteration
//    as four kernels over the whole GPU, the payoff matrix read once for both products
//    (tile_products, every block streaming a 64-row x 1024-column tile); the iteration count
//    lives on the device, so a sequence of iterations can be captured in a CUDA graph.
//
// P is the payoffs' type (float or double); everything else is double.

#define TIE_TOLERANCE 1e-12
#define FLAG_LEARN0 1
#define FLAG_LEARN1 2
#define FLAG_PLUS 4
#define FLAG_PREDICTIVE 8
#define FLAG_ALTERNATING 16
#define FLAG_TRACK_CE 32
#define FLAG_TRACK_JOINT 64
#define FLAG_AVERAGE_UNIFORM 128
// weighting: 0 uniform, 1 linear, 2 discounted (bits 8-9)
#define WEIGHTING(flags) (((flags) >> 8) & 3)

#define TILE_ROWS 64
#define TILE_THREADS 256
#define TILE_COLUMNS_PER_THREAD 4
#define TILE_COLUMNS (TILE_THREADS * TILE_COLUMNS_PER_THREAD)

struct Schedule {
    double d_pos, d_neg, d_avg, c_avg;
};

// weighting.regret_discounts and weighting.averaging_step at iteration t (1-based)
__device__ Schedule schedule_at(long long t, int flags, double alpha, double beta, double exponent) {
    Schedule s;
    s.d_pos = 1.0;
    s.d_neg = 1.0;
    s.d_avg = 1.0;
    s.c_avg = 1.0;
    if (t <= 1) return s;
    int weighting = WEIGHTING(flags);
    if (weighting == 1) {
        s.d_pos = s.d_neg = (double)(t - 1) / (double)t;
    } else if (weighting == 2) {
        double u = (double)(t - 1);
        s.d_pos = alpha >= 0 ? 1.0 / (1.0 + pow(u, -alpha)) : pow(u, alpha) / (pow(u, alpha) + 1.0);
        s.d_neg = beta >= 0 ? 1.0 / (1.0 + pow(u, -beta)) : pow(u, beta) / (pow(u, beta) + 1.0);
    }
    if (!(flags & FLAG_AVERAGE_UNIFORM)) {
        double ratio = (double)(t - 1) / (double)t;
        if (exponent >= 0) {
            s.d_avg = pow(ratio, exponent);
        } else {
            s.c_avg = pow(ratio, -exponent);
        }
    }
    return s;
}

__device__ double warp_sum(double v) {
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffff, v, offset);
    return v;
}

__device__ double warp_max(double v) {
    for (int offset = 16; offset > 0; offset >>= 1) v = fmax(v, __shfl_down_sync(0xffffffff, v, offset));
    return v;
}

// The sum (or max) of v over the block, returned to every thread. scratch: 33 doubles.
__device__ double block_reduce(double v, bool maximum, double* scratch) {
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = (blockDim.x + 31) >> 5;
    v = maximum ? warp_max(v) : warp_sum(v);
    __syncthreads();  // scratch may still be read by a previous reduction
    if (lane == 0) scratch[warp] = v;
    __syncthreads();
    if (warp == 0) {
        double w = lane < warps ? scratch[lane] : 0.0;  // (the maxima are of |U| >= 0)
        w = maximum ? warp_max(w) : warp_sum(w);
        if (lane == 0) scratch[32] = w;
    }
    __syncthreads();
    return scratch[32];
}

// u = pi . U and the tie scale max(bound, max |U|) (kernels.tie_bounds), for every thread of the block
__device__ void value_and_scale(const double* utilities, const double* strategy, int n, double bound,
                                double* scratch, double* value, double* scale) {
    double v = 0.0, m = bound;
    for (int a = threadIdx.x; a < n; a += blockDim.x) {
        v += utilities[a] * strategy[a];
        m = fmax(m, fabs(utilities[a]));
    }
    *value = block_reduce(v, false, scratch);
    *scale = block_reduce(m, true, scratch);
}

__device__ double snapped(double regret, double scale) {
    return fabs(regret) <= TIE_TOLERANCE * scale ? 0.0 : regret;
}

// The averaging-weighted sums of entry a of one player (the profile played at the iteration's
// start): S <- d S + c pi, Rbar <- d Rbar + c r.
__device__ void accumulate_entry(int a, const double* strategy, const double* utilities, double value, double scale,
                                 double* strategy_sum, double* external, const Schedule& s) {
    double instant = snapped(utilities[a] - value, scale);
    strategy_sum[a] = s.d_avg * strategy_sum[a] + s.c_avg * strategy[a];
    external[a] = s.d_avg * external[a] + s.c_avg * instant;
}

// ... of every entry, and the CE accumulator internal(b, a) <- d internal(b, a) + c pi(b) (U(a) - U(b))
// (0 where a and b tie: _accumulate_internal)
__device__ void accumulate(int n, const double* strategy, const double* utilities, double value, double scale,
                           double* strategy_sum, double* external, double* internal, bool track_ce,
                           const Schedule& s) {
    for (int a = threadIdx.x; a < n; a += blockDim.x)
        accumulate_entry(a, strategy, utilities, value, scale, strategy_sum, external, s);
    if (track_ce) {
        for (int k = threadIdx.x; k < n * n; k += blockDim.x) {
            int b = k / n, a = k - b * n;
            double gap = utilities[a] - utilities[b];
            internal[k] = s.d_avg * internal[k] + s.c_avg * (fabs(gap) <= TIE_TOLERANCE * scale ? 0.0 : strategy[b] * gap);
        }
    }
}

// Entry a of a learner's update (_discount_add, _guide): guiding regret, prediction, and the
// positive part of the guide, stored in current[a] and returned (normalised afterwards).
__device__ double learn_entry(int a, const double* utilities, double value, double scale, double* regret,
                              double* prediction, double* current, int flags, const Schedule& s) {
    double instant = snapped(utilities[a] - value, scale);
    double kept = (regret[a] > 0.0 ? s.d_pos : s.d_neg) * regret[a];
    double added = instant;  // c = 1 in every fixed schedule
    double updated = kept + added;
    if (fabs(updated) <= TIE_TOLERANCE * (fabs(kept) + fabs(added))) updated = 0.0;
    if (flags & FLAG_PLUS) updated = fmax(updated, 0.0);
    regret[a] = updated;
    double guide = updated;
    if (flags & FLAG_PREDICTIVE) {
        prediction[a] = added;
        guide = updated + added;
    }
    double positive = guide > 0.0 ? guide : 0.0;
    current[a] = positive;
    return positive;
}

// One learner's whole update by one block: regret matching pi = [guide]_+ / sum (uniform when
// nothing is positive), in place in `current`.
__device__ void learn(int n, const double* utilities, double value, double scale, double* regret,
                      double* prediction, double* current, int flags, const Schedule& s, double* scratch) {
    double total = 0.0;
    __syncthreads();  // every thread has read `current` (the strategy played) before it changes
    for (int a = threadIdx.x; a < n; a += blockDim.x)
        total += learn_entry(a, utilities, value, scale, regret, prediction, current, flags, s);
    total = block_reduce(total, false, scratch);
    for (int a = threadIdx.x; a < n; a += blockDim.x) current[a] = total > 0.0 ? current[a] / total : 1.0 / n;
    __syncthreads();
}

// out = P y (rows), one warp per row, lanes striding over the columns
template <typename P>
__device__ void block_rows(const P* payoff, const double* y, int rows, int columns, double* out) {
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
    for (int a = warp; a < rows; a += warps) {
        const P* row = payoff + (long long)a * columns;
        double s = 0.0;
        for (int b = lane; b < columns; b += 32) s += (double)row[b] * y[b];
        s = warp_sum(s);
        if (lane == 0) out[a] = s;
    }
}

// out = sign * (x P) (columns), one thread per column
template <typename P>
__device__ void block_columns(const P* payoff, const double* x, int rows, int columns, double sign, double* out) {
    for (int b = threadIdx.x; b < columns; b += blockDim.x) {
        double s = 0.0;
        for (int a = 0; a < rows; ++a) s += x[a] * (double)payoff[(long long)a * columns + b];
        out[b] = sign * s;
    }
}

// The totals and both players' updates of one iteration of the device loop, given U_0, U_1 of
// the start profile (utilities0/1). Alternating updates: player 2 learns from own1 = x' P_1,
// computed here after player 1's update.
template <typename P>
__device__ void iterate(const P* payoff1, double sign1, const double* bounds, int rows, int columns,
                        double* current0, double* current1,
                        double* regret0, double* regret1, double* prediction0, double* prediction1,
                        double* sum0, double* sum1, double* external0, double* external1, double* internal0,
                        double* internal1, double* joint, double* payoff_sum, double* weight_sum,
                        const double* utilities0, const double* utilities1, double* own1, long long t, int flags,
                        double alpha, double beta, double exponent, double* scratch) {
    Schedule s = schedule_at(t, flags, alpha, beta, exponent);
    double value0, scale0, value1, scale1;
    value_and_scale(utilities0, current0, rows, bounds[0], scratch, &value0, &scale0);
    value_and_scale(utilities1, current1, columns, bounds[1], scratch, &value1, &scale1);
    bool track_ce = flags & FLAG_TRACK_CE;
    accumulate(rows, current0, utilities0, value0, scale0, sum0, external0, internal0, track_ce, s);
    accumulate(columns, current1, utilities1, value1, scale1, sum1, external1, internal1, track_ce, s);
    if (flags & FLAG_TRACK_JOINT) {
        for (long long k = threadIdx.x; k < (long long)rows * columns; k += blockDim.x) {
            int a = (int)(k / columns), b = (int)(k - (long long)a * columns);
            joint[k] = s.d_avg * joint[k] + s.c_avg * (current0[a] * current1[b]);
        }
    }
    if (threadIdx.x == 0) {
        payoff_sum[0] = s.d_avg * payoff_sum[0] + s.c_avg * value0;
        payoff_sum[1] = s.d_avg * payoff_sum[1] + s.c_avg * value1;
        weight_sum[0] = s.d_avg * weight_sum[0] + s.c_avg;
    }
    if (flags & FLAG_LEARN0) learn(rows, utilities0, value0, scale0, regret0, prediction0, current0, flags, s, scratch);
    if (!(flags & FLAG_LEARN1)) return;
    if ((flags & FLAG_ALTERNATING) && (flags & FLAG_LEARN0)) {  // player 2 answers x'
        block_columns(payoff1, current0, rows, columns, sign1, own1);
        __syncthreads();
        value_and_scale(own1, current1, columns, bounds[1], scratch, &value1, &scale1);
        learn(columns, own1, value1, scale1, regret1, prediction1, current1, flags, s, scratch);
    } else {
        learn(columns, utilities1, value1, scale1, regret1, prediction1, current1, flags, s, scratch);
    }
}

// grid = B games, each block `iterations` iterations of its game. Arrays are (B, ...) with
// game g at offset g * (size of one); payoff1 == payoff0 with sign1 = -1 in a zero-sum game.
template <typename P>
__device__ void loop(const P* payoff0, const P* payoff1, double sign1, const double* bounds, double* current0,
                     double* current1, double* regret0, double* regret1, double* prediction0, double* prediction1, double* sum0,
                     double* sum1, double* external0, double* external1, double* internal0, double* internal1,
                     double* joint, double* payoff_sum, double* weight_sum, double* utilities0, double* utilities1,
                     double* own1, int rows, int columns, long long t0, int iterations, int flags, double alpha,
                     double beta, double exponent) {
    __shared__ double scratch[33];
    long long g = blockIdx.x;
    long long rc = (long long)rows * columns;
    payoff0 += g * rc;
    payoff1 += g * rc;
    current0 += g * rows, regret0 += g * rows, prediction0 += g * rows, sum0 += g * rows, external0 += g * rows;
    current1 += g * columns, regret1 += g * columns, prediction1 += g * columns, sum1 += g * columns;
    external1 += g * columns;
    if (flags & FLAG_TRACK_CE) internal0 += g * rows * rows, internal1 += g * columns * columns;
    if (flags & FLAG_TRACK_JOINT) joint += g * rc;
    payoff_sum += 2 * g, weight_sum += g, bounds += 2 * g;
    utilities0 += g * rows, utilities1 += g * columns, own1 += g * columns;
    for (int step = 0; step < iterations; ++step) {
        block_rows(payoff0, current1, rows, columns, utilities0);
        block_columns(payoff1, current0, rows, columns, sign1, utilities1);
        __syncthreads();
        iterate(payoff1, sign1, bounds, rows, columns, current0, current1, regret0, regret1, prediction0,
                prediction1, sum0, sum1, external0, external1, internal0, internal1, joint, payoff_sum, weight_sum, utilities0,
                utilities1, own1, t0 + step + 1, flags, alpha, beta, exponent, scratch);
        __syncthreads();
    }
}

// The tile of rows [64 blockIdx.y, +64) x columns [1024 blockIdx.x, +1024) of P_0 (and P_1):
// row_parts[blockIdx.x, a] = sum over the tile's columns of P_0[a, b] y(b),
// column_parts[blockIdx.y, b] = sum over the tile's rows of x(a) P_1[a, b] (P_0 when zero-sum).
// rows_too / columns_too: which of the two products this pass forms.
template <typename P>
__device__ void tile(const P* payoff0, const P* payoff1, const double* x, const double* y, int rows, int columns,
                     double* row_parts, double* column_parts, bool rows_too, bool columns_too) {
    __shared__ double warp_rows[TILE_ROWS][TILE_THREADS / 32];
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    int a0 = blockIdx.y * TILE_ROWS, b0 = blockIdx.x * TILE_COLUMNS;
    double yb[TILE_COLUMNS_PER_THREAD], column[TILE_COLUMNS_PER_THREAD];
    int b[TILE_COLUMNS_PER_THREAD];
#pragma unroll
    for (int k = 0; k < TILE_COLUMNS_PER_THREAD; ++k) {
        b[k] = b0 + threadIdx.x + k * TILE_THREADS;
        yb[k] = b[k] < columns ? y[b[k]] : 0.0;
        column[k] = 0.0;
    }
    int last = min(TILE_ROWS, rows - a0);
#pragma unroll 4
    for (int r = 0; r < last; ++r) {
        long long base = (long long)(a0 + r) * columns;
        double xa = x[a0 + r], s = 0.0;
#pragma unroll
        for (int k = 0; k < TILE_COLUMNS_PER_THREAD; ++k) {
            if (b[k] < columns) {
                double p = (double)payoff0[base + b[k]];
                s += p * yb[k];
                if (columns_too) column[k] += xa * (payoff1 == payoff0 ? p : (double)payoff1[base + b[k]]);
            }
        }
        if (rows_too) {
            s = warp_sum(s);
            if (lane == 0) warp_rows[r][warp] = s;
        }
    }
    if (columns_too) {
#pragma unroll
        for (int k = 0; k < TILE_COLUMNS_PER_THREAD; ++k)
            if (b[k] < columns) column_parts[(long long)blockIdx.y * columns + b[k]] = column[k];
    }
    if (rows_too) {
        __syncthreads();
        if (threadIdx.x < last) {
            double s = 0.0;
            for (int w = 0; w < TILE_THREADS / 32; ++w) s += warp_rows[threadIdx.x][w];
            row_parts[(long long)blockIdx.x * rows + a0 + threadIdx.x] = s;
        }
    }
}

extern "C" {

// The kernels CuPy loads by name, for double and float payoffs.
#define LOOP_KERNEL(NAME, P)                                                                                   \
    __global__ void NAME(const P* payoff0, const P* payoff1, double sign1, const double* bounds,                \
                         double* current0, double* current1,                                                  \
                         double* regret0, double* regret1, double* prediction0, double* prediction1, double* sum0, \
                         double* sum1, double* external0, double* external1, double* internal0, double* internal1, \
                         double* joint, double* payoff_sum, double* weight_sum, double* utilities0,               \
                         double* utilities1, double* own1, int rows, int columns, long long t0, int iterations,  \
                         int flags, double alpha, double beta, double exponent) {                                \
        loop(payoff0, payoff1, sign1, bounds, current0, current1, regret0, regret1, prediction0, prediction1, sum0, sum1, \
             external0, external1, internal0, internal1, joint, payoff_sum, weight_sum, utilities0, utilities1,   \
             own1, rows, columns, t0, iterations, flags, alpha, beta, exponent);                                   \
    }
#define TILE_KERNEL(NAME, P)                                                                                   \
    __global__ void NAME(const P* payoff0, const P* payoff1, const double* x, const double* y, int rows,        \
                         int columns, double* row_parts, double* column_parts, int rows_too, int columns_too) {   \
        tile(payoff0, payoff1, x, y, rows, columns, row_parts, column_parts, rows_too, columns_too);             \
    }

LOOP_KERNEL(bimatrix_loop_f64, double)
LOOP_KERNEL(bimatrix_loop_f32, float)
TILE_KERNEL(tile_products_f64, double)
TILE_KERNEL(tile_products_f32, float)

// The tiled pass's other kernels run on a grid of GRID_THREADS-thread blocks over the actions;
// a sum over the whole vector is left as one partial per block and every block of the next
// kernel adds the partials up itself, in the same order (deterministic, no atomics).
//
// reduce_parts: U_0[a] = sum of the row parts (rows_mode 1); columns_mode 1: out1[b] =
// sign1 * sum of the column parts; columns_mode 2: out1 as it is (x P_1 kept from the last
// iteration). Per block, stats[block] = (sum x U_0, max |U_0|, sum y out1, max |out1|).
__global__ void reduce_parts(const double* row_parts, const double* column_parts, int rows, int columns,
                             int row_chunks, int column_tiles, double sign1, const double* x, const double* y,
                             double* utilities0, double* out1, int rows_mode, int columns_mode, double* stats) {
    __shared__ double scratch[33];
    long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    double v0 = 0.0, m0 = 0.0, v1 = 0.0, m1 = 0.0;
    if (rows_mode && k < rows) {
        double u = 0.0;
        for (int c = 0; c < row_chunks; ++c) u += row_parts[(long long)c * rows + k];
        utilities0[k] = u;
        v0 = x[k] * u;
        m0 = fabs(u);
    }
    if (columns_mode && k < columns) {
        double u;
        if (columns_mode == 1) {
            u = 0.0;
            for (int c = 0; c < column_tiles; ++c) u += column_parts[(long long)c * columns + k];
            u = sign1 * u;
            out1[k] = u;
        } else {
            u = out1[k];
        }
        v1 = y[k] * u;
        m1 = fabs(u);
    }
    v0 = block_reduce(v0, false, scratch);
    m0 = block_reduce(m0, true, scratch);
    v1 = block_reduce(v1, false, scratch);
    m1 = block_reduce(m1, true, scratch);
    if (threadIdx.x == 0) {
        stats[4 * blockIdx.x] = v0;
        stats[4 * blockIdx.x + 1] = m0;
        stats[4 * blockIdx.x + 2] = v1;
        stats[4 * blockIdx.x + 3] = m1;
    }
}

// The first `width` totals of `count` blocks' partials (sums, or maxima where maximum[k]),
// added in block order by thread k: the same numbers in every block.
__device__ void totals(const double* partials, int count, int width, const bool* maximum, double* out) {
    if (threadIdx.x < width) {
        double total = 0.0;
        for (int j = 0; j < count; ++j) {
            double v = partials[width * j + threadIdx.x];
            total = maximum[threadIdx.x] ? fmax(total, v) : total + v;
        }
        out[threadIdx.x] = total;
    }
    __syncthreads();
}

// respond_grid: the iteration's sums and regret updates, entry by entry. phase 0: both players
// (simultaneous updates); phase 1: both players' sums, player 1 learns (alternating); phase 2:
// player 2 learns from out1 = x' P_1. positives[block] = (sum of player 1's positive parts,
// player 2's). counter[0] = t - 1.
__global__ void respond_grid(double* current0, double* current1, double* regret0, double* regret1,
                             double* prediction0, double* prediction1, double* sum0, double* sum1,
                             double* external0, double* external1, double* payoff_sum, double* weight_sum,
                             const double* utilities0, const double* utilities1, int rows, int columns,
                             const double* stats, int stat_blocks, double* positives, const long long* counter,
                             int flags, double alpha, double beta, double exponent, int phase,
                             const double* bounds) {
    __shared__ double scratch[33];
    __shared__ double total[4];
    const bool maximum[4] = {false, true, false, true};
    totals(stats, stat_blocks, 4, maximum, total);
    double scale0 = fmax(total[1], bounds[0]), scale1 = fmax(total[3], bounds[1]);  // the tie scales
    Schedule s = schedule_at(counter[0] + 1, flags, alpha, beta, exponent);
    long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    double positive0 = 0.0, positive1 = 0.0;
    if (phase != 2) {
        if (k < rows) accumulate_entry(k, current0, utilities0, total[0], scale0, sum0, external0, s);
        if (k < columns) accumulate_entry(k, current1, utilities1, total[2], scale1, sum1, external1, s);
        if (k == 0) {
            payoff_sum[0] = s.d_avg * payoff_sum[0] + s.c_avg * total[0];
            payoff_sum[1] = s.d_avg * payoff_sum[1] + s.c_avg * total[2];
            weight_sum[0] = s.d_avg * weight_sum[0] + s.c_avg;
        }
        if ((flags & FLAG_LEARN0) && k < rows)
            positive0 = learn_entry(k, utilities0, total[0], scale0, regret0, prediction0, current0, flags, s);
    }
    if (phase != 1 && (flags & FLAG_LEARN1) && k < columns)
        positive1 = learn_entry(k, utilities1, total[2], scale1, regret1, prediction1, current1, flags, s);
    positive0 = block_reduce(positive0, false, scratch);
    positive1 = block_reduce(positive1, false, scratch);
    if (threadIdx.x == 0) {
        positives[2 * blockIdx.x] = positive0;
        positives[2 * blockIdx.x + 1] = positive1;
    }
}

// normalise_grid: regret matching's division by the sum of positive parts (uniform when it is
// 0) for the players that learnt in this phase; phase 0 and 2 end the iteration (counter).
__global__ void normalise_grid(double* current0, double* current1, int rows, int columns, const double* positives,
                               int blocks, long long* counter, int flags, int phase) {
    __shared__ double total[2];
    const bool maximum[2] = {false, false};
    totals(positives, blocks, 2, maximum, total);
    long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (phase != 2 && (flags & FLAG_LEARN0) && k < rows)
        current0[k] = total[0] > 0.0 ? current0[k] / total[0] : 1.0 / rows;
    if (phase != 1 && (flags & FLAG_LEARN1) && k < columns)
        current1[k] = total[1] > 0.0 ? current1[k] / total[1] : 1.0 / columns;
    if (k == 0 && phase != 1) counter[0] += 1;
}
}
