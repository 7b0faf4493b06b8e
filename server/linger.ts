// The console's lingering close. The logger has the same one (logger/http/linger.ts), written for
// the same reason; the console keeps its own because it shares no code with the logger (its only
// contract with it is HTTP, ARCHITECTURE.md), so either can change or be replaced alone.
import type { IncomingMessage } from "node:http";

/** After an early answer, at most this much more of the body is read and dropped (then reading pauses)… */
export const LINGER_BYTES = 8 * 1024 * 1024;
/** …and after this long the connection is cut. */
export const LINGER_MS = 2000;

/**
 * A lingering close, as nginx does it. Answered before the body was read (a 413), the connection
 * must close, but cutting it while the client is still sending makes the kernel answer the
 * client's next bytes with a reset, and a reset can discard the answer from the client's receive
 * buffer before it was read: the client sees EPIPE/ECONNRESET instead of the 413. So once the
 * answer is flushed the socket is half-closed (our FIN) and the rest of the body is read and
 * dropped until it ends or the client closes its side. Past LINGER_BYTES reading stops (the
 * client's writes block instead of being reset), and after LINGER_MS the connection is cut.
 */
export function lingerOnClose(req: IncomingMessage): void {
  const socket = req.socket;
  if (socket.destroyed) return;
  // Node's server calls destroySoon() once a Connection: close answer is flushed.
  socket.destroySoon = function lingeringClose() {
    if (socket.writable) socket.end();
    let dropped = 0;
    const cut = () => socket.destroy();
    const timer = setTimeout(cut, LINGER_MS);
    timer.unref();
    socket.once("close", () => clearTimeout(timer));
    socket.once("end", cut);
    // The body still goes through the HTTP parser (it may be chunked): read it there.
    req.removeAllListeners("data");
    req.on("data", (chunk: Buffer) => {
      dropped += chunk.length;
      if (dropped > LINGER_BYTES) req.pause();
    });
    req.once("end", cut);
    req.once("error", cut);
    req.resume();
  };
}
