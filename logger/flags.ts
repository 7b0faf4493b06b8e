// V8 flags of the logger process, for every place that starts it (npm start, npm run logger,
// benches, end-to-end tests) — the logger's twin of server/flags.ts.
// A small young generation: a CSV import streams its request bodies through short-lived socket
// buffers, which V8 returns when it collects the young generation, or otherwise only once 64 MB
// of them have piled up. bench/import.ts (100 MB through HTTP, 2 cores): the upload grew the
// logger by ~35 MB with the default (up to 16 MB per semi-space) and by ~6 MB with 4 MB — about
// what a bare Node server that only drains such an upload grows by, too.
export const LOGGER_NODE_FLAGS = [`--max-semi-space-size=${process.env.LOGGER_SEMI_SPACE_MB ?? 4}`];
