// Full-traversal CFR on an NVIDIA GPU (rmviz.solvers.tree.device): the loops of the CPU
// kernel _run (kernels.py) as one kernel per depth and two over slots and information sets.
//
// Nodes are numbered breadth first (compiled_tree.py): a depth is a contiguous range, the
// children of a node are contiguous, and a node's parent lies in the depth above. So
//   forward(depth):  probability[c] = chance or strategy[slot[c]];
//                    reach[q, c] = reach[q, parent] * (probability[c] if q owns the edge)
//   backward(depth): values[i, h] = payoff (terminal) or sum over children p(c) values[i, c]
//   counterfactual:  cfv(s) = sum over the decision edges c of slot s, in node order, of
//                    pi_{-i}(parent) values[i, c] (edges listed per slot: no atomics), and
//                    the counterfactual reach rho(s), the sum of pi_{-i}(parent)
//   infosets:        instantaneous regret, regret update, sums and regret matching per
//                    information set (one thread each), as _run does them.
// Every sum runs in the CPU kernel's order and the module is compiled without fused
// multiply-adds, so the iterates are the CPU's bit for bit (tests/solvers/tree/test_device.py).
//
// Batches (rmviz.solvers.tree.batch): B games of one tree that differ in their payoffs run in
// the same launches, game g in the blocks with blockIdx.y = g. The tree's arrays are shared;
// the per-game ones are (B, ...) and each kernel first moves its pointers to game g's rows.

#define TIE_TOLERANCE 1e-12

extern "C" {

__global__ void forward(const long long* parent, const long long* owner, const long long* slot,
                        const double* chance_probability, const double* strategy, double* probability,
                        double* reach, long long nodes, int players, long long start, long long end,
                        long long slots) {
    long long c = start + (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= end) return;
    long long g = blockIdx.y;
    strategy += g * slots;
    probability += g * nodes;
    reach += g * (players + 1) * nodes;
    double p = slot[c] < 0 ? chance_probability[c] : strategy[slot[c]];
    probability[c] = p;
    long long h = parent[c];
    for (int q = 0; q <= players; ++q) {
        double r = reach[q * nodes + h];
        reach[q * nodes + c] = owner[c] == q ? r * p : r;
    }
}

__global__ void backward(const long long* child_start, const long long* child_count, const double* payoffs,
                         const double* probability, double* values, long long nodes, int players, long long start,
                         long long end) {
    long long h = start + (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (h >= end) return;
    long long g = blockIdx.y;
    payoffs += g * players * nodes;
    probability += g * nodes;
    values += g * players * nodes;
    long long first = child_start[h], count = child_count[h];
    for (int i = 0; i < players; ++i) {
        if (count == 0) {
            values[i * nodes + h] = payoffs[i * nodes + h];
            continue;
        }
        double total = 0.0;
        for (long long c = first; c < first + count; ++c) total += values[i * nodes + c] * probability[c];
        values[i * nodes + h] = total;
    }
}

// cfv[s] and rho[s] for the slots [lo, hi); edge_offsets (S+1) and edges: the decision edges of
// each slot
__global__ void counterfactual(const long long* edge_offsets, const long long* edges, const long long* parent,
                               const long long* node_player, const double* reach, const double* values, double* cfv,
                               double* rho, long long nodes, int players, long long lo, long long hi,
                               long long slots) {
    long long s = lo + (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (s >= hi) return;
    long long g = blockIdx.y;
    reach += g * (players + 1) * nodes;
    values += g * players * nodes;
    cfv += g * slots;
    rho += g * slots;
    double total = 0.0, others_total = 0.0;
    for (long long e = edge_offsets[s]; e < edge_offsets[s + 1]; ++e) {
        long long c = edges[e], h = parent[c];
        long long acting = node_player[h];
        double others = 1.0;
        for (int q = 0; q <= players; ++q)
            if (q != acting) others *= reach[q * nodes + h];
        total += others * values[acting * nodes + c];
        others_total += others;
    }
    cfv[s] = total;
    rho[s] = others_total;
}

// the information sets [first, last): instantaneous regret (ties exact zeros: |r| <= 1e-12 x
// max over the slots of max(|cfv|, U rho), U = bound[g], compiled_tree.tie_scale), guiding regret
// (cancellations exact zeros, RM+ clipped), own-reach-weighted strategy sum, averaging-weighted
// true regret, then regret matching on the guide: the regret, or in predictive CFR
// g R + m with the prediction m = the added regret (kept in prediction) and the next
// iteration's discounts g (cancellations exact zeros). The guide waits in strategy[s], whose
// old value the sums have read, until the second pass normalises it.
__global__ void infosets(const long long* first_slot, const long long* size, const long long* infoset_player,
                         const long long* infoset_first_node, const double* reach, const double* cfv,
                         const double* rho, const double* bound, double* strategy, double* regret,
                         double* strategy_sum, double* true_regret, double* prediction, long long nodes, long long first, long long last, double d_pos,
                         double d_neg, double d_avg, double c_avg, double g_pos, double g_neg, int plus,
                         int predictive, int players, long long slots) {
    long long info = first + (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (info >= last) return;
    long long g = blockIdx.y;
    reach += g * (players + 1) * nodes;
    cfv += g * slots;
    rho += g * slots;
    strategy += g * slots;
    regret += g * slots;
    strategy_sum += g * slots;
    true_regret += g * slots;
    if (predictive) prediction += g * slots;  // else a placeholder of one element
    long long lo = first_slot[info], hi = lo + size[info];
    double value = 0.0, scale = 0.0;
    for (long long s = lo; s < hi; ++s) {
        value += strategy[s] * cfv[s];
        scale = fmax(scale, fmax(fabs(cfv[s]), bound[g] * rho[s]));
    }
    double own = reach[infoset_player[info] * nodes + infoset_first_node[info]];
    for (long long s = lo; s < hi; ++s) {
        double instant = cfv[s] - value;
        if (fabs(instant) <= TIE_TOLERANCE * scale) instant = 0.0;
        double kept = regret[s] > 0 ? d_pos * regret[s] : d_neg * regret[s];
        double added = instant;  // c = 1 in every fixed schedule
        double updated = kept + added;
        if (fabs(updated) <= TIE_TOLERANCE * (fabs(kept) + fabs(added))) updated = 0.0;
        regret[s] = plus ? fmax(updated, 0.0) : updated;
        strategy_sum[s] = d_avg * strategy_sum[s] + c_avg * (own * strategy[s]);
        true_regret[s] = d_avg * true_regret[s] + c_avg * instant;
        double guide = regret[s];
        if (predictive) {
            prediction[s] = added;
            double ahead = regret[s] > 0 ? g_pos * regret[s] : g_neg * regret[s];
            guide = ahead + added;
            if (fabs(guide) <= TIE_TOLERANCE * (fabs(ahead) + fabs(added))) guide = 0.0;
        }
        strategy[s] = guide;
    }
    double total = 0.0;
    for (long long s = lo; s < hi; ++s) total += strategy[s] > 0 ? strategy[s] : 0.0;
    for (long long s = lo; s < hi; ++s) {
        double positive = strategy[s] > 0 ? strategy[s] : 0.0;
        strategy[s] = total > 0 ? positive / total : 1.0 / (double)(hi - lo);
    }
}
}
