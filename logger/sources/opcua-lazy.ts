import type { Driver, DriverFactory } from "./driver.ts";
import { problemText } from "./problems.ts";

// The OPC UA driver factory for the logger's driver map: node-opcua is large (seconds to load on
// a small device), so it is imported when the first OPC UA source starts, not at logger start.

export const lazyOpcuaDriver: DriverFactory = (config, events, opts) => {
  let real: Driver | null = null;
  let stopped = false;
  let loading: Promise<void> | null = null;
  return {
    start() {
      stopped = false;
      if (real) return real.start();
      loading ??= import("./opcua.ts")
        .then((m) => {
          if (stopped) return;
          real = m.createOpcuaDriver(config, events, opts);
          real.start();
        })
        .catch((e: unknown) => events.state("error", problemText("clientNotLoaded", { detail: (e as Error).message })));
    },
    async write(index, value) {
      await loading;
      if (!real) throw new Error(`Not connected to ${config.Protocol === "opcua" ? config.Connection.Endpoint : config.Name}`);
      return real.write(index, value);
    },
    async stop() {
      stopped = true;
      await loading;
      await real?.stop();
    },
  };
};
