import { buildIfStale } from "../../scripts/build-fresh.ts";

// Once for the whole run, before any worker starts its stack: the workers' `npm start`s then
// find the build fresh instead of racing to make it.
export default function globalSetup() {
  buildIfStale({ log: (line) => console.log(`[e2e] ${line}`) });
}
