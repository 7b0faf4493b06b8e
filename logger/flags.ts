// V8 flags of the logger process, for every place that starts it (npm start, npm run logger,
// benches, end-to-end tests) — the logger's twin of server/flags.ts.
// A small young generation: a CSV import streams its request bodies through short-lived socket
// buffers, which V8 returns when it collects the young generation, or otherwise only once 64 MB
// of them have piled up. bench/import.ts (100 MB through HTTP, 2 cores): the upload grew the
// logger by ~35 MB with the default (up to 16 MB per semi-space) and by ~6 MB with 4 MB — about
// what a bare Node server that only drains such an upload grows by, too.
// --expose-gc: after a burst of heavy answers the logger asks V8 to give their memory back
// (logger/http/memory-settle.ts, which exposes it itself when the process started without).
export const LOGGER_NODE_FLAGS = [`--max-semi-space-size=${process.env.LOGGER_SEMI_SPACE_MB ?? 4}`, "--expose-gc"];

/**
 * Environment of the logger process for glibc's allocator, for every place that starts it. By
 * default glibc raises its trim threshold after large blocks are freed (up to 64 MB), and keeps
 * what streamed answers, page reads and a backfill freed instead of returning it: the logger's
 * resident size grew by ~30 MB on its first heavy reads and never came down (issue 24, bench/
 * heavy-readers.ts). A fixed threshold (setting it switches the dynamic one off) returns freed
 * memory at the top of the heap: +5 to +17 MB, back after load, in three runs of the same load.
 * Setting the threshold also fixes the mmap threshold at 128 kB, so every password hash (scrypt's
 * 16 MB block) was mapped anew, 4,000 page faults each: 2.2× the CPU of glibc's defaults on a VM
 * where a fault is dear. glibc's `hugetlb=1` has it ask for transparent huge pages on what it maps
 * (where the kernel offers them on request): a hash as cheap as with the defaults, a few MB more
 * at rest (bench/password-hash.ts, bench/heavy-readers.ts; bench/RESULTS.md). A raised mmap
 * threshold did the same for the hash but kept 44 MB more at rest.
 * A value already in the environment is kept; other C libraries ignore these names.
 */
export function loggerEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return { MALLOC_TRIM_THRESHOLD_: env.MALLOC_TRIM_THRESHOLD_ ?? "65536", MALLOC_TOP_PAD_: env.MALLOC_TOP_PAD_ ?? "0", GLIBC_TUNABLES: env.GLIBC_TUNABLES ?? "glibc.malloc.hugetlb=1" };
}
