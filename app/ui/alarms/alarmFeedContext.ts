import { createContext } from "react";
import type { AlarmFeed } from "./useAlarmFeed";

/** The page's current alarm state (the shell's feed), for what else listens to it: the annunciator. */
export const AlarmFeedContext = createContext<AlarmFeed>(null);
