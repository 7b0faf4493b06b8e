const PROBE_MS = 3000;

/** Whether the configured Jupyter server answers at all (any HTTP status counts). */
export async function jupyterAnswers(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, { method: "GET", redirect: "manual", signal: AbortSignal.timeout(PROBE_MS) });
    await res.body?.cancel();
    return true;
  } catch {
    return false;
  }
}
