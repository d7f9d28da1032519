// Sizes of the storage bench, in one place so every runtime runs the same work.
export const STORAGE_BENCH_EPISODES = 10_000;
/** Episodes per `put`: a host records the few episodes an epoch closed, not one giant batch. */
export const STORAGE_BENCH_BATCH = 10;
export const STORAGE_BENCH_RECALLS = 1_000;
/** Recall asks for what fits a card budget, not everything. */
export const STORAGE_BENCH_RECALL_LIMIT = 10;
export const STORAGE_BENCH_SESSION_MESSAGES = 1_000;
/** Saves and loads timed per session document; the median is reported. */
export const STORAGE_BENCH_SESSION_ROUNDS = 20;
