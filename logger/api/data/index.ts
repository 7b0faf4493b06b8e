import type { RestRoute } from "../../http/rest.ts";
import { fileRoutes } from "./files.ts";
import { historyRoutes } from "./history.ts";
import { onlineRoutes } from "./online.ts";
import { statisticsRoutes } from "./statistics.ts";
import { streamRoutes } from "./stream.ts";
import { structureRoutes } from "./structure.ts";

export const dataRoutes: RestRoute[] = [...structureRoutes, ...onlineRoutes, ...historyRoutes, ...statisticsRoutes, ...streamRoutes, ...fileRoutes];
