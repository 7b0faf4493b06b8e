// V8 flags of the console process, for every place that starts it (npm start, benches, tests).
// A small young generation: the console streams exports and logger answers through short-lived
// buffers whose memory V8 returns only when it collects the young generation. With the default
// (up to 16 MB per semi-space) a 1 GB export grew the console by 60+ MB, with 8 MB by 45–73 MB,
// with 4 MB by about 34 MB. Pages allocate about 2 MB each: 4 MB collects a third less often
// than 2 MB did (0.56 ms of collection per dashboard page instead of 0.8; bench/RESULTS.md).
export const CONSOLE_NODE_FLAGS = [`--max-semi-space-size=${process.env.CONSOLE_SEMI_SPACE_MB ?? 4}`];
