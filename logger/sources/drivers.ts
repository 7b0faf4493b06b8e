import type { Protocol } from "./config.ts";
import type { DriverFactory } from "./driver.ts";
import { createModbusDriver } from "./modbus.ts";
import { mqttDriver } from "./mqtt.ts";
import { lazyOpcuaDriver } from "./opcua-lazy.ts";

/** The driver of each protocol (decision 0010); a protocol missing here shows "No driver" as its error. */
export const DRIVERS: Partial<Record<Protocol, DriverFactory>> = {
  mqtt: mqttDriver,
  modbus: createModbusDriver,
  opcua: lazyOpcuaDriver,
};
