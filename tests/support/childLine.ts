import type { ChildProcess } from "node:child_process";

/**
 * The first match of `pattern` in what `child` writes on stdout (e.g. a logger's "logger listening
 * on <url>" line). What it writes after that goes to `rest`, or is read and dropped: a child whose
 * stdout pipe fills up blocks on its next write. Rejects if the child exits before the line, with
 * the last of what it wrote.
 */
export function waitForLine(child: ChildProcess, pattern: RegExp, what: string, rest: (chunk: string) => void = () => {}): Promise<RegExpExecArray> {
  return new Promise((done, fail) => {
    let text = "";
    child.stdout!.setEncoding("utf8");
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => fail(new Error(`${what} exited (${signal ?? code}) before it was ready: ${text.slice(-500)}`));
    const onData = (chunk: string) => {
      text += chunk;
      const m = pattern.exec(text);
      if (!m) return;
      child.stdout!.off("data", onData);
      child.off("exit", onExit);
      child.stdout!.on("data", rest);
      done(m);
    };
    child.stdout!.on("data", onData);
    child.once("exit", onExit);
  });
}
