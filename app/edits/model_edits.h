#pragma once
// Edits of the model's dimensions that keep the scenario valid: when d_model, the head
// counts, d_k or d_v change, every explicit matrix is resized to its new shape at once (the
// values that still have a place are kept, head by head; new cells come from the seed's
// generator), so the scenario never holds a matrix of the wrong shape.

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/matrix.h"
#include "core/scenario/scenario.h"

namespace attnviz::edits {

// Where new cells come from. default_fresh() uses the core's generators with the scenario's
// seed (generate_weight / generate_embeddings); tests pass fixed fills.
struct FreshMatrices {
  std::function<Matrix(std::string_view name, int rows, int cols)> weight;  // "wq", "wk", "wv", "wo"
  std::function<Matrix(int d_model)> embeddings;                            // N × d_model for X
  std::function<Matrix(int d_model)> source_embeddings;                     // M × d_model
};
FreshMatrices default_fresh(const Scenario& scenario);

// The allowed range of every dimension (the core's ProblemLimits).
int max_dimension();
int max_heads();

Scenario set_d_model(Scenario s, int d_model, const FreshMatrices& fresh);
// Keeps num_kv_heads a divisor: MHA stays MHA (kv = heads), otherwise the largest divisor of
// the new head count that is <= the old kv count.
Scenario set_num_heads(Scenario s, int heads, const FreshMatrices& fresh);
// Ignored (returns s unchanged) unless kv_heads divides num_heads.
Scenario set_num_kv_heads(Scenario s, int kv_heads, const FreshMatrices& fresh);
Scenario set_d_k(Scenario s, int d_k, const FreshMatrices& fresh);
Scenario set_d_v(Scenario s, int d_v, const FreshMatrices& fresh);

// W_O on (generated from the seed, d_out = d_model) or off (no output projection).
Scenario set_output_projection(Scenario s, bool enabled);

// A new seed, and every matrix generated from it again (explicit ones are dropped; an
// explicit W_O becomes a generated one).
Scenario regenerate(Scenario s, std::uint64_t seed);

// The divisors of n in increasing order: the kv head counts offered for n query heads.
std::vector<int> divisors(int n);
// "multi-head (MHA)", "grouped-query (GQA): 4 query heads share each K/V head",
// "multi-query (MQA)", "single head".
std::string attention_kind(int heads, int kv_heads);

// The temperature slider: scale = 1 / T.
double scale_from_temperature(double temperature);
double temperature_from_scale(double scale);

}  // namespace attnviz::edits
