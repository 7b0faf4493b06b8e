import { createServer } from "node:http";
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import { AlarmEngine } from "./alarms/engine.ts";
import { Notifier } from "./alarms/notifier.ts";
import type { NotifierOptions } from "./alarms/notifier.ts";
import type { LoggerContext } from "./api/registry.ts";
import { makeClients } from "./auth/clients.ts";
import { isLoopbackHost } from "./auth/client-secret.ts";
import { DeviceTokens } from "./auth/device-tokens.ts";
import { auditThrottleEvent } from "./auth/login.ts";
import { SignInThrottle } from "./auth/throttle.ts";
import { passwordPolicyError } from "./auth/passwords.ts";
import { StreamHub } from "./api/data/stream.ts";
import { LiveSocketHub, ObservedLiveValues } from "./api/data/ws.ts";
import { LiveCaps } from "./api/data/live-caps.ts";
import type { LiveLimits } from "./api/data/live-caps.ts";
import type { LiveSocketStats } from "./api/data/ws.ts";
import { FileRoot } from "./files/paths.ts";
import { createRequestHandler } from "./http/router.ts";
import { foreignRefusal, refuseUpgrade, sitePolicy } from "./http/origin.ts";
import { HeavyGate, HeavyLane } from "./http/heavy.ts";
import { MemorySettler } from "./http/memory-settle.ts";
import type { HeavyLimits } from "./http/heavy.ts";
import { CanBus } from "./can/bus.ts";
import { Acquisition } from "./model/acquisition.ts";
import { emptyModel } from "./model/types.ts";
import { resolveSim } from "./sim/options.ts";
import type { SimOptions } from "./sim/options.ts";
import { Simulator } from "./sim/simulator.ts";
import { openDb } from "./store/db.ts";
import { DEFAULT_LOGGER_ID, openPostgres, schemaOf } from "./store/postgres/open.ts";
import { importedSources, projectState } from "./store/measurements.ts";
import { applyStoredChannels } from "./api/project-config.ts";
import { loadProjectConfig } from "./store/project-config.ts";
import { migrate } from "./store/migrations.ts";
import { seed } from "./store/seed.ts";
import { seedDeviceLocations } from "./store/device-locations.ts";
import { seedDashboards } from "./store/seed-dashboards.ts";
import { openSeriesStore } from "./store/series/open.ts";
import type { OutageLimits, OutageStatus } from "./store/series/outage.ts";
import { DRIVERS } from "./sources/drivers.ts";
import { setOpcuaPkiFolder } from "./sources/opcua-pki.ts";
import type { DriverFactory } from "./sources/driver.ts";
import { SourceManager } from "./sources/manager.ts";
import type { Protocol } from "./sources/config.ts";
import { TraceLog } from "./trace.ts";

// Crash safety: at most this much acquired data is only in memory.
const FLUSH_MS = 500;
const RETENTION_SWEEP_MS = 3_600_000;

export type LoggerOptions = {
  port?: number;
  host?: string;
  dataDir: string;
  controller?: boolean;
  adminPassword?: string;
  clientId?: string;
  clientSecret?: string;
  accessTtlSec?: number;
  refreshTtlSec?: number;
  log?: (line: string) => void;
  /** The test rig simulator: off unless given (main.ts turns it on). */
  simulator?: boolean | SimOptions;
  /** Notification retries (tests shorten the backoff) and the alarm clock tick. */
  alarms?: NotifierOptions & { tickMs?: number };
  /** Data-source drivers replacing the built-in ones (tests). */
  drivers?: Partial<Record<Protocol, DriverFactory>>;
  /**
   * Seconds of simulated history to generate only when this start created the store (npm start's
   * first hour; on PostgreSQL a new store has no DATA_DIR file to tell it by).
   */
  backfillIfNewSec?: number;
  /** postgres://… keeps the whole store in PostgreSQL (issue 17); unset: SQLite and series.db in dataDir. */
  storeUrl?: string;
  /** This logger's id on a shared PostgreSQL: its schema loggia_<id> and the lease of the id. */
  loggerId?: string;
  /** Origins whose pages may send requests (the console's); pages of any other origin are refused (logger/http/origin.ts). */
  allowedOrigins?: string[];
  /**
   * Names the logger is reached by besides loopback names and IP addresses; any other Host is
   * refused (DNS rebinding). Unset: none on a loopback-only logger (nobody reaches it by another
   * name), any Host otherwise.
   */
  hostnames?: string[];
  /** What the series store keeps in memory while its database does not take writes (STORE_BUFFER_MB, STORE_BUFFER_TIME). */
  storeBuffer?: Partial<OutageLimits>;
  /** Places for heavy data answers (tests make them small). */
  heavy?: Partial<HeavyLimits>;
  /** Live connections per user, in all, and the console relay's reserve (tests make them small). */
  live?: Partial<LiveLimits>;
  /**
   * Series rows (docs/storage.md): complete rows packed (default) or plain; background packing of
   * rows stored before packing existed starts compactAfterMs after start (default 30 s; null: never).
   */
  series?: { codec?: "packed" | "plain"; compactAfterMs?: number | null };
};

export type RunningLogger = {
  url: string;
  port: number;
  close(): Promise<void>;
  /** The live WebSocket's connections and what they hold (tests, diagnostics). */
  liveSocketStats(): LiveSocketStats;
  /** Heavy data answers open and waiting for a place (tests, diagnostics). */
  heavyStats(): { open: number; waiting: number };
  /** The series store's writing state and outage buffer, as ProjectAPI.GetState's Store (tests, diagnostics). */
  storeStatus(): OutageStatus;
  /** This start created the store (no roles yet: seeded with the first Administrator). */
  created: boolean;
  /** admin's first password when this start created the store and generated it (no adminPassword given). */
  initialAdminPassword: string | null;
};

export async function startLogger(opts: LoggerOptions): Promise<RunningLogger> {
  const log = opts.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  if (opts.adminPassword !== undefined) {
    const problem = passwordPolicyError(opts.adminPassword, "admin");
    if (problem) throw new Error(`Admin password rejected: ${problem}`);
  }

  const simOpts = opts.simulator ? resolveSim(opts.simulator === true ? {} : opts.simulator) : null;
  const loggerId = opts.loggerId ?? DEFAULT_LOGGER_ID;
  const db = opts.storeUrl ? await openPostgres({ url: opts.storeUrl, loggerId, log }) : openDb(opts.dataDir);
  const store = await (async () => {
    try {
      await migrate(db);
      const series = await openSeriesStore({ dataDir: opts.dataDir, log, storeUrl: opts.storeUrl ?? "", schema: schemaOf(loggerId) });
      series.codec.pack = opts.series?.codec !== "plain";
      return series;
    } catch (err) {
      await db.close();
      throw err;
    }
  })();
  const now = simOpts?.now ?? Date.now;
  const live = new ObservedLiveValues();
  const liveCaps = new LiveCaps(opts.live);
  const sockets = new LiveSocketHub(live, now, liveCaps);
  let sim: Simulator | null = null;
  let firstStart = false;
  let initialAdminPassword: string | null = null;
  try {
    ({ created: firstStart, generated: initialAdminPassword } = await seed(db, opts.adminPassword));
    for (const id of await importedSources(db)) store.retentionExempt.add(id);
    store.applyRetention(now());
    // The rate chosen on the Simple Config screen wins over the configured default.
    const storedRate = (await loadProjectConfig(db)).config.SampleRateHz;
    if (simOpts && storedRate) simOpts.benchRateHz = storedRate;
    sim = simOpts ? new Simulator(simOpts, store, live) : null;
    if (sim) await applyStoredChannels(db, { store, model: sim.rig.model }, sim);
    if (firstStart && sim) await seedDashboards(db, sim.rig.model);
    if (sim) await seedDeviceLocations(db, sim.rig.model, sim.newDevices);
    const backfillSec = Math.max(simOpts?.backfillSec ?? 0, firstStart ? (opts.backfillIfNewSec ?? 0) : 0);
    if (sim && backfillSec > 0) await sim.backfill(backfillSec, log);
  } catch (err) {
    await store.close();
    await db.close();
    throw err;
  }
  const streams = new StreamHub(live, now);
  const trace = new TraceLog(opts.dataDir);
  // Series writes that fail (PostgreSQL unreachable), how full the outage buffer gets and what an
  // outage cost: in the trace log and on stdout (the service's journal, readable while the database is away).
  store.outage.limits = { ...store.outage.limits, ...opts.storeBuffer };
  store.onEvent = (level, message) => {
    trace.add(level, "store", message);
    log(`logger: ${message}`);
  };
  const notifier = new Notifier(db, trace, opts.alarms);
  const model = sim?.rig.model ?? emptyModel();
  const alarms = new AlarmEngine(db, model, notifier, trace, now);
  await alarms.settled(); // the rules are loaded before the first sample arrives
  alarms.start(opts.alarms?.tickMs);
  const st = await projectState(db, now());
  setOpcuaPkiFolder(join(opts.dataDir, "pki"));
  const sources = new SourceManager({
    db, store, live, model, now, running: st.Running,
    log: (level, message) => trace.add(level, "datasource", message),
    factories: { ...DRIVERS, ...opts.drivers },
  });
  const acquisition = new Acquisition({ db, sim, sources, now, running: st.Running, since: st.Since });
  const can = new CanBus({
    dataDir: opts.dataDir, seed: simOpts?.seed ?? 1, now, store, live, model,
    simulated: sim !== null, acquiring: () => acquisition.running,
    onError: (message) => trace.add("warn", "can", message),
  });
  can.start();
  if (sim) {
    sim.onSamples = (id, first, periodUs, values) => {
      alarms.onSamples(id, first, periodUs, values);
      sockets.onSamples(id, first, periodUs, values);
    };
    sim.onEvent = (level, message) => trace.add(level, "simulator", message);
    sim.start(st.Running, st.Since);
  }
  sources.onSamples = (id, first, periodUs, values) => {
    alarms.onSamples(id, first, periodUs, values);
    sockets.onSamples(id, first, periodUs, values);
  };
  await sources.start();
  // Paced: a flush of many partial blocks gives other events turns (issue 16's p99 delay).
  const flushTimer = setInterval(() => void store.flushPaced(), FLUSH_MS);
  const sweepTimer = setInterval(() => store.applyRetention(now()), RETENTION_SWEEP_MS);
  const compactAfterMs = opts.series?.compactAfterMs === undefined ? 30_000 : opts.series.compactAfterMs;
  if (compactAfterMs !== null) store.startCompaction({ delayMs: compactAfterMs });
  // Stops everything that produces data; the store itself closes after the last request.
  let sourcesClosed: Promise<void> = Promise.resolve();
  const stopData = () => {
    sim?.close();
    // Drivers disconnect in the background (close() waits for them); their events are ignored from here on.
    sourcesClosed = sources.close();
    can.close();
    alarms.close();
    notifier.close();
    streams.closeAll();
    sockets.closeAll();
    clearInterval(flushTimer);
    clearInterval(sweepTimer);
    settler.close();
  };

  let throttleAudits: Promise<void> = Promise.resolve();
  const settler = new MemorySettler();
  const heavyGate = new HeavyGate(opts.heavy, settler);
  const ctx: LoggerContext = {
    db,
    controller: opts.controller ?? false,
    clients: makeClients(opts.clientId ?? "loggia-console", opts.clientSecret ?? "loggia-console-secret"),
    ttl: { accessTtlSec: opts.accessTtlSec ?? 900, refreshTtlSec: opts.refreshTtlSec ?? 604800 },
    data: { store, live, sim, sources, acquisition, model, streams, liveCaps, heavy: { gate: heavyGate, lane: new HeavyLane() }, now },
    alarms,
    notifier,
    trace,
    dataDir: opts.dataDir,
    files: new FileRoot(join(opts.dataDir, "files")),
    can,
    deviceTokens: DeviceTokens.inDataDir(opts.dataDir),
    site: sitePolicy(opts.allowedOrigins, opts.hostnames ?? (isLoopbackHost(opts.host ?? "127.0.0.1") ? [] : null)),
    throttle: new SignInThrottle({
      // One after another, in the order they happen: on PostgreSQL two writes in flight at once
      // may commit in either order, and "paused after 5 failed attempts" would precede the fifth.
      // The answer to the attempt waits for the returned promise (see Attempt.settle).
      onEvent: (event) =>
        (throttleAudits = throttleAudits
          .then(() => auditThrottleEvent(db, event))
          .catch((err: unknown) => trace.add("error", "audit", `Sign-in audit not written: ${(err as Error).message}`))),
    }),
  };

  const server = createServer(createRequestHandler(ctx, log));
  server.on("upgrade", (req, socket, head) => {
    // The live WebSocket takes no token at all without login: a foreign page must not open it.
    const foreign = foreignRefusal(req, ctx.site, { upgrade: true });
    if (!foreign) return sockets.upgrade(ctx, req, socket, head);
    trace.add("warn", "ws", `Upgrade refused: ${foreign}`);
    refuseUpgrade(socket, foreign);
  });
  // Without a bound, a client that never finishes its request would hold a socket forever.
  server.requestTimeout = 30_000;
  server.headersTimeout = 15_000;
  // Idle keep-alive sockets are closed by the client's pool (the console's fetch: after about
  // 4 s), not by us: when the server closes first, a request the client sends on that socket at
  // the same moment fails ("fetch failed", other side closed) — seen under load in the soak.
  server.keepAliveTimeout = 65_000;

  const host = opts.host ?? "127.0.0.1";
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(opts.port ?? 0, host, () => {
        server.off("error", reject);
        resolve();
      });
    });
  } catch (err) {
    stopData();
    await store.close();
    await db.close();
    throw err;
  }
  const port = (server.address() as AddressInfo).port;
  trace.add("info", "logger", `Listening on port ${port}${sim ? " with the simulated test rig" : ""}`);
  const urlHost = host.includes(":") ? `[${host}]` : host;

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= new Promise<void>((resolve) => {
      // Live streams never end on their own; without this close() would wait for the grace period.
      stopData();
      server.close(() => {
        // On PostgreSQL the last samples are written when this resolves.
        const stored = store.close();
        // Alarm transitions already queued are stored before the store closes.
        const dbClosed = alarms.settled().then(() => db.close());
        void Promise.all([stored, sourcesClosed, dbClosed]).then(() => resolve(), () => resolve());
      });
      server.closeIdleConnections();
      // Requests still running after this grace period are cut off.
      setTimeout(() => server.closeAllConnections(), 2000).unref();
    }));

  return { url: `http://${urlHost}:${port}`, port, close, liveSocketStats: () => sockets.stats(), heavyStats: () => heavyGate.stats(), storeStatus: () => store.outageStatus(), created: firstStart, initialAdminPassword };
}
