import { useRouteLoaderData } from "react-router";
import type { loader } from "~/root";

export type RootData = Awaited<ReturnType<typeof loader>>["data"];

/** The root loader's shell data; undefined when the root loader itself failed. */
export function useRootData(): RootData | undefined {
  return useRouteLoaderData<typeof loader>("root");
}
