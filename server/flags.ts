// V8 flags of the console process, for every place that starts it (npm start, benches, tests).
// A small young generation: the console streams exports and logger answers through short-lived
// buffers whose memory V8 returns only when it collects the young generation. With the default
// (up to 16 MB per semi-space) a 1 GB export held 60+ MB of spent chunks at times; with 2 MB it
// stays near 25 MB, and page renders are no slower (bench/RESULTS.md).
export const CONSOLE_NODE_FLAGS = [`--max-semi-space-size=${process.env.CONSOLE_SEMI_SPACE_MB ?? 2}`];
