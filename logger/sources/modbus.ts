import ModbusRTU from "modbus-serial";
import type { ModbusDataSource } from "./config.ts";
import { BACKOFF_MIN_MS, nextBackoff, within } from "./driver.ts";
import type { Driver, DriverEvents, DriverFactory } from "./driver.ts";
import { describeError, encode, planReads, valueFrom } from "./modbus-codec.ts";
import type { ReadRequest } from "./modbus-codec.ts";
import { problemText } from "./problems.ts";

// The Modbus TCP driver (decision 0010): polls every PeriodMs on a steady schedule aligned to the
// source's grid (poll k starts at k × PeriodMs, so timer lateness never accumulates; a poll still
// running when the next one is due makes that slot a gap instead of queueing), one request per
// run of contiguous registers, and reconnects with back-off after a connection error.

type Client = InstanceType<typeof ModbusRTU>;

/** Errors that mean the link itself is gone (reconnect), as opposed to a Modbus exception answer. */
const isExceptionAnswer = (e: unknown) => typeof (e as { modbusCode?: unknown } | null)?.modbusCode === "number";

export type ModbusStats = { polls: number; skipped: number; lateMs: number[] };

export class ModbusDriver implements Driver {
  private client: Client | null = null;
  private stopped = true;
  private pollTimer: NodeJS.Timeout | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private backoff = BACKOFF_MIN_MS;
  private polling = false;
  /** Counts connections: a poll of an earlier one that never ended does not hold up this one's. */
  private generation = 0;
  private nextDue = 0;
  /** Serialises requests on the one connection (polls and writes). */
  private queue: Promise<unknown> = Promise.resolve();
  private lastState = "";
  private readonly plan: ReadRequest[];
  private readonly where: string;
  /** Poll-timing figures for the benchmark: how late each poll started against its slot. */
  readonly stats: ModbusStats = { polls: 0, skipped: 0, lateMs: [] };
  recordLateness = false;

  private readonly config: ModbusDataSource;
  private readonly events: DriverEvents;
  private readonly opts: { now(): number };

  constructor(config: ModbusDataSource, events: DriverEvents, opts: { now(): number }) {
    this.config = config;
    this.events = events;
    this.opts = opts;
    this.plan = planReads(config.Variables.map((v, index) => ({ index, address: v.Address })).filter((i) => config.Variables[i.index]!.Direction !== "O"));
    this.where = `${config.Connection.Host}:${config.Connection.Port}`;
  }

  /** Requests a poll makes (for tests and the benchmark). */
  get requests(): readonly ReadRequest[] {
    return this.plan;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.backoff = BACKOFF_MIN_MS;
    this.report("connecting");
    this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.clearTimers();
    await this.drop();
  }

  async write(index: number, value: number): Promise<void> {
    const v = this.config.Variables[index];
    if (!v) throw new Error(`No variable ${index} in ${this.config.Name}`);
    if (v.Direction === "I") throw new Error(`${v.Name} is an input, not an output`);
    const a = v.Address;
    if (a.Register !== "holding" && a.Register !== "coil") throw new Error(`${v.Name}: ${a.Register} registers cannot be written`);
    const words = a.Register === "holding" ? encode(value, a) : [];
    await this.exclusive(async () => {
      const client = this.client;
      if (!client?.isOpen) throw new Error(`Not connected to ${this.where}`);
      try {
        if (a.Register === "coil") await client.writeCoil(a.Address, value !== 0);
        else if (words.length === 1) await client.writeRegister(a.Address, words[0]!);
        else await client.writeRegisters(a.Address, words);
      } catch (e) {
        throw new Error(`Writing ${v.Name}: ${describeError(e, this.where)}`, { cause: e });
      }
    });
  }

  // ---- connection ----

  private connect(): void {
    if (this.stopped) return;
    const { Host, Port, UnitId, TimeoutMs } = this.config.Connection;
    const client = new ModbusRTU();
    this.client = client;
    // A fresh queue and poll slot per connection: modbus-serial's destroy() cancels the timeouts
    // of requests in flight without ever settling them, so a request cut off by an outage would
    // otherwise hold the queue (and the poll) for good — "connected", every value stale.
    this.generation++;
    this.queue = Promise.resolve();
    this.polling = false;
    client.setID(UnitId);
    client.setTimeout(TimeoutMs);
    // modbus-serial re-emits socket errors; without a listener an 'error' event would crash the process.
    client.on("error", () => {});
    client.on("close", () => {
      if (this.client === client && !this.stopped) this.lost(problemText("closed", { where: this.where }));
    });
    let connecting: Promise<void>;
    try {
      connecting = client.connectTCP(Host, { port: Port });
    } catch (e) {
      connecting = Promise.reject(e);
    }
    connecting
      .then(() => {
        if (this.client !== client || this.stopped) return void client.close(() => {});
        this.backoff = BACKOFF_MIN_MS;
        this.report("connected");
        this.schedule(true);
      })
      .catch((e: unknown) => {
        if (this.client === client) this.lost(describeError(e, this.where));
      });
  }

  /** The link failed: report, close it and try again after the back-off. */
  private lost(message: string): void {
    if (this.stopped) return;
    this.report("error", message);
    if (this.pollTimer) clearTimeout(this.pollTimer);
    this.pollTimer = null;
    void this.drop();
    if (this.retryTimer) return;
    const wait = this.backoff;
    this.backoff = nextBackoff(this.backoff);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.connect();
    }, wait);
  }

  private async drop(): Promise<void> {
    const client = this.client;
    this.client = null;
    if (!client) return;
    await new Promise<void>((resolve) => {
      const done = setTimeout(resolve, 1000);
      try {
        if (!client.isOpen) {
          clearTimeout(done);
          resolve();
          // a socket still connecting is torn down without waiting
          client.destroy?.(() => {});
          return;
        }
        client.close(() => {
          clearTimeout(done);
          resolve();
        });
      } catch {
        clearTimeout(done);
        resolve();
      }
    });
  }

  private clearTimers(): void {
    if (this.pollTimer) clearTimeout(this.pollTimer);
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.pollTimer = this.retryTimer = null;
  }

  private report(state: "connecting" | "connected" | "error", error?: string): void {
    const key = `${state}\n${error ?? ""}`;
    if (key === this.lastState) return;
    this.lastState = key;
    this.events.state(state, error);
  }

  // ---- polling ----

  /** Arms the timer for the next slot of the grid (the first one after now when `fresh`). */
  private schedule(fresh: boolean): void {
    if (this.stopped || !this.client) return;
    const period = this.config.PeriodMs;
    const now = this.opts.now();
    if (fresh || this.nextDue <= now) {
      const next = Math.floor(now / period) * period + period;
      if (!fresh) this.stats.skipped += Math.round((next - this.nextDue) / period);
      this.nextDue = next;
    }
    this.pollTimer = setTimeout(() => this.tick(), Math.max(0, this.nextDue - this.opts.now()));
  }

  private tick(): void {
    this.pollTimer = null;
    if (this.stopped || !this.client) return;
    const due = this.nextDue;
    this.nextDue = due + this.config.PeriodMs;
    if (this.polling) {
      this.stats.skipped++; // the previous poll overran: this slot is a gap
    } else {
      const start = this.opts.now();
      if (this.recordLateness) this.stats.lateMs.push(start - due);
      this.polling = true;
      const generation = this.generation;
      this.poll(start, due)
        .catch((e: unknown) => this.events.bad(null, describeError(e, this.where)))
        .finally(() => {
          if (generation === this.generation) this.polling = false;
        });
    }
    this.schedule(false);
  }

  private async poll(start: number, due: number): Promise<void> {
    this.stats.polls++;
    // Values carry the start of the slot the poll began in: a timer that fires late on a busy
    // machine still files its poll under that slot (the next poll is scheduled for the next one),
    // and the lateness itself is what the jitter figure measures. A timer may fire a fraction of a
    // millisecond early: never before the slot it was due for.
    const slot = Math.max(due, Math.floor(start / this.config.PeriodMs) * this.config.PeriodMs);
    if (this.plan.length === 0) return;
    let failed = 0;
    let firstError = "";
    for (const req of this.plan) {
      const client = this.client;
      if (!client || this.stopped) return;
      try {
        const answer = await this.exclusive(() => this.read(client, req));
        if (this.client !== client) return;
        for (const item of req.items) {
          const value = valueFrom(answer, req.start, item.address);
          if (Number.isFinite(value)) this.events.value(item.index, value, slot);
          else this.events.bad(item.index, `${this.config.Variables[item.index]!.Name}: register value is not a number (${value})`);
        }
      } catch (e) {
        if (this.client !== client || this.stopped) return;
        const message = describeError(e, this.where);
        if (!isExceptionAnswer(e)) return this.lost(message);
        failed++;
        firstError ||= `${message} reading ${req.register} ${req.start}..${req.start + req.count - 1}`;
        for (const item of req.items) this.events.bad(item.index, `${this.config.Variables[item.index]!.Name}: ${message}`);
      }
    }
    // Every request answered with an exception: the device is reachable but serves none of it.
    if (failed === this.plan.length) this.report("error", firstError);
    else this.report("connected");
  }

  private async read(client: Client, req: ReadRequest): Promise<ArrayLike<number | boolean>> {
    switch (req.register) {
      case "holding":
        return (await client.readHoldingRegisters(req.start, req.count)).data;
      case "input":
        return (await client.readInputRegisters(req.start, req.count)).data;
      case "coil":
        return (await client.readCoils(req.start, req.count)).data;
      case "discrete":
        return (await client.readDiscreteInputs(req.start, req.count)).data;
    }
  }

  private exclusive<T>(job: () => Promise<T>): Promise<T> {
    // Bounded too: a request the library never settles (see connect()) fails after its timeout.
    const bounded = () => within(job(), this.config.Connection.TimeoutMs + 1000, `No answer from ${this.where}`);
    const run = this.queue.then(bounded, bounded);
    this.queue = run.catch(() => {});
    return run;
  }
}

export const createModbusDriver: DriverFactory = (config, events, opts) => {
  if (config.Protocol !== "modbus") throw new Error(`Modbus driver given a ${config.Protocol} source`);
  return new ModbusDriver(config, events, opts);
};
