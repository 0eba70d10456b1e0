// UNIFORM_IF(condition) { ... } runs the block when a workgroup-uniform condition holds.
// llvmpipe (lavapipe) executes both sides of an ordinary `if` under a lane mask, so work
// guarded by one is paid for even when skipped; a loop whose trip count is zero is not
// entered at all. GPUs treat both forms alike.
#define UNIFORM_IF(condition) for (int uniform_if_once = 0; uniform_if_once < ((condition) ? 1 : 0); ++uniform_if_once)
