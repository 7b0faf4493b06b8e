import type { RestRoute } from "../../http/rest.ts";
import { fileRoutes } from "./files.ts";
import { historyRoutes } from "./history.ts";
import { onlineRoutes } from "./online.ts";
import { streamRoutes } from "./stream.ts";
import { structureRoutes } from "./structure.ts";

export const dataRoutes: RestRoute[] = [...structureRoutes, ...onlineRoutes, ...historyRoutes, ...streamRoutes, ...fileRoutes];
