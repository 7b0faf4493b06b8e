import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

// Where the OPC UA client keeps its certificate and trust lists. A module of its own, without
// node-opcua, so the logger can set it at start without loading the OPC UA client.

let folder = join(tmpdir(), `loggia-opcua-pki-${process.getuid?.() ?? 0}`);

/**
 * Sets the PKI folder (the logger: DATA_DIR/pki, so the client certificate a server's
 * administrator trusted survives restarts). Takes effect for connections made afterwards.
 */
export function setOpcuaPkiFolder(dir: string): void {
  folder = resolve(dir);
}

export const opcuaPkiFolder = (): string => folder;
