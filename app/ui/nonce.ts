import { createContext, useContext } from "react";

/**
 * The CSP nonce of the page being rendered on the server (entry.server provides it); undefined
 * in the browser, where the scripts have run already.
 */
export const NonceContext = createContext<string | undefined>(undefined);

export function useNonce(): string | undefined {
  return useContext(NonceContext);
}
