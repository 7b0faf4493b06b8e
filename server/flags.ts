// V8 flags of the console process, for every place that starts it (npm start, benches, tests).
// A small young generation: the console streams exports and logger answers through short-lived
// buffers whose memory V8 returns only when it collects the young generation. With the default
// (up to 16 MB per semi-space) a 1 GB export grew the console by 60+ MB, with 8 MB by 45–73 MB,
// with 4 MB by about 34 MB. Pages allocate about 2 MB each: 4 MB collects a third less often
// than 2 MB did (0.56 ms of collection per dashboard page instead of 0.8; bench/RESULTS.md).
// A full collection once the old generation has grown by half since the last one, instead of
// V8's own factor (up to 4x under a steady page load): with 10 kiosks + 3 operators the heap
// climbed to 210-290 MB between full collections (75-90 MB live) and the console's RSS stayed at
// that high-water mark, 371 MB; with 50 % it stays under 115 MB and RSS at 245 MB, with the same
// pages served and latency (bench/RESULTS.md, Soak).
export const CONSOLE_NODE_FLAGS = [`--max-semi-space-size=${process.env.CONSOLE_SEMI_SPACE_MB ?? 4}`, `--heap-growing-percent=${process.env.CONSOLE_HEAP_GROWING_PERCENT ?? 50}`];
