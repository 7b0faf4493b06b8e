import type { RestRoute } from "../../http/rest.ts";
import { fileRoutes } from "./files.ts";
import { historyRoutes } from "./history.ts";
import { importRoutes } from "./import.ts";
import { onlineRoutes } from "./online.ts";
import { statisticsRoutes } from "./statistics.ts";
import { streamRoutes } from "./stream.ts";
import { structureRoutes } from "./structure.ts";

// Import first: its /history/data/import must win over any /history/data/{sid} pattern.
export const dataRoutes: RestRoute[] = [...importRoutes, ...structureRoutes, ...onlineRoutes, ...historyRoutes, ...statisticsRoutes, ...streamRoutes, ...fileRoutes];
