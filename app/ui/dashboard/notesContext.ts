import { createContext } from "react";

/**
 * What a page with charts says about annotations there (issue 28 §6): whether the viewer may add
 * notes (UseMetaData) and the page to come back to from the annotations screen. No provider: the
 * charts show the notes they are given but offer no adding (the wall display).
 */
export const ChartNotesContext = createContext<{ mayAdd: boolean; back: string } | null>(null);
