// A deployment as a real site has it: Debian's nginx in front of one or more built console
// processes, which use a given logger. nginx runs unprivileged-style from a temp prefix
// (`-p <dir> -c <conf> -e <log>`). Used by the e2e specs (HTTPS proxy, replicas) and the
// replicas benchmark. Several consoles are balanced round-robin with no stickiness, as a
// load balancer without session affinity does: consecutive requests of one browser land on
// different consoles.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { CONSOLE_NODE_FLAGS } from "../../server/flags.ts";
import { freePort } from "./freePort.ts";

const root = resolve(import.meta.dirname, "../..");
export const NGINX = ["/usr/sbin/nginx", "/usr/bin/nginx"].find((p) => existsSync(p)) ?? "nginx";
/** The response header naming the console that answered (only in these test sites' nginx). */
export const UPSTREAM_HEADER = "x-loggia-upstream";

export { freePort };

async function until(what: string, check: () => Promise<boolean>, ms = 20_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not come up`);
}

const accepts = (port: number) =>
  new Promise<boolean>((done) => {
    const s = connect(port, "127.0.0.1");
    s.once("connect", () => (s.destroy(), done(true)));
    s.once("error", () => done(false));
  });

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    child.once("exit", () => done());
    child.kill("SIGTERM");
  });
}

/**
 * The proxy settings a deployment needs (README "Several consoles behind a proxy"): Host and
 * X-Forwarded-*, WebSocket upgrades (VNC), no buffering for the live stream (SSE), uploads up to
 * 25 MB. A console that failed a request is not set aside (max_fails=0): round-robin stays
 * predictable for the tests. With `keepalive`, connections to the consoles are kept open (closed by nginx before the
 * console's own 5 s idle timeout) instead of one per request.
 */
function nginxConf(o: { dir: string; listen: number; consoles: number[]; tls: boolean; tellUpstream: boolean; workers: number; keepalive: boolean }): string {
  const { dir } = o;
  return `worker_processes ${o.workers};
error_log ${join(dir, "error.log")} warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${join(dir, "client_body")};
  proxy_temp_path ${join(dir, "proxy")};
  fastcgi_temp_path ${join(dir, "fastcgi")};
  uwsgi_temp_path ${join(dir, "uwsgi")};
  scgi_temp_path ${join(dir, "scgi")};
  map $http_upgrade $connection_upgrade { default upgrade; '' ${o.keepalive ? "''" : "close"}; }
  upstream consoles {
${o.consoles.map((p) => `    server 127.0.0.1:${p} max_fails=0;`).join("\n")}
${o.keepalive ? "    keepalive 32;\n    keepalive_timeout 4s;\n" : ""}  }
  server {
    listen 127.0.0.1:${o.listen}${o.tls ? " ssl" : ""};
    server_name localhost;
${o.tls ? `    ssl_certificate ${join(dir, "cert.pem")};\n    ssl_certificate_key ${join(dir, "key.pem")};\n` : ""}    client_max_body_size 25m;
    location / {
      proxy_pass http://consoles;
      proxy_http_version 1.1;
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_set_header X-Forwarded-Host $host:$server_port;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header Upgrade $http_upgrade;
      proxy_set_header Connection $connection_upgrade;
      proxy_buffering off;
      proxy_read_timeout 1h;
${o.tellUpstream ? "      add_header X-Loggia-Upstream $upstream_addr always;\n" : ""}    }
  }
}
`;
}

export interface ProxySite {
  /** What the browser uses: http(s)://localhost:<port>. */
  origin: string;
  /** The consoles' own ports, in the order nginx lists them. */
  consolePorts: number[];
  /** Process ids: the consoles (same order) and nginx's master. */
  pids: { consoles: number[]; nginx: number };
  /** Which console answered, from the upstream header ("127.0.0.1:port"): its index, or -1. */
  replicaOf(upstream: string | null | undefined): number;
  stop(): Promise<void>;
}

export interface ProxySiteOptions {
  loggerUrl: string;
  /** How many console processes (default 1). */
  consoles?: number;
  tls?: boolean;
  /** Extra console environment, given the proxy's port (TRUST_PROXY, PUBLIC_ORIGIN…). */
  consoleEnv?: (proxyPort: number) => Record<string, string>;
  /** Add the X-Loggia-Upstream header to every answer (tests only: it names internal addresses). */
  tellUpstream?: boolean;
  /** Keep connections to the consoles open (the benchmark; default off, as the tests always had it). */
  keepalive?: boolean;
  /** nginx worker processes (default 1). */
  workers?: number;
  /** Fixed ports: the proxy's first, then the consoles'. Free ones otherwise. */
  ports?: number[];
  sessionSecret?: string;
}

/** Starts the consoles and nginx in front of them; everything stops with stop(). */
export async function startProxySite(o: ProxySiteOptions): Promise<ProxySite> {
  const count = o.consoles ?? 1;
  const dir = mkdtempSync(join(tmpdir(), "loggia-proxy-site-"));
  const ports = o.ports ?? [];
  const proxyPort = ports[0] ?? (await freePort());
  const consolePorts: number[] = [];
  for (let i = 0; i < count; i++) consolePorts.push(ports[i + 1] ?? (await freePort()));
  const children: ChildProcess[] = [];
  const stopAll = async () => {
    await Promise.all(children.map(stop));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    if (o.tls) {
      // node-opcua's PKI (loaded in an e2e worker by the data-source specs' OPC UA test server)
      // sets process.env.OPENSSL_CONF for its own openssl runs, even to "undefined": openssl gets
      // the system's configuration here, whatever ran in this process before.
      const { OPENSSL_CONF: _conf, RANDFILE: _rand, ...env } = process.env;
      const cert = spawnSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem"), "-days", "1", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost"], { encoding: "utf8", env });
      if (cert.status !== 0) throw new Error(`openssl: ${cert.stderr}`);
    }
    // nginx's workers drop to an unprivileged user when started as root: its temp folders must be theirs to write.
    const temps = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"];
    for (const sub of temps) mkdirSync(join(dir, sub));
    chmodSync(dir, 0o755);
    for (const sub of temps) chmodSync(join(dir, sub), 0o777);
    writeFileSync(join(dir, "nginx.conf"), nginxConf({ dir, listen: proxyPort, consoles: consolePorts, tls: o.tls ?? false, tellUpstream: o.tellUpstream ?? false, workers: o.workers ?? 1, keepalive: o.keepalive ?? false }));
    for (const port of consolePorts) {
      const child = spawn(process.execPath, [...CONSOLE_NODE_FLAGS, join("server", "main.ts"), "build/server/index.js"], {
        cwd: root,
        env: {
          ...process.env,
          PORT: String(port),
          HOST: "127.0.0.1",
          LOGGER_URL: o.loggerUrl,
          NODE_ENV: "production",
          // One secret for every console of the site: each must read the cookies the others wrote.
          SESSION_SECRET: o.sessionSecret ?? "e2e-proxy-site-secret-0123456789abcdef",
          ...o.consoleEnv?.(proxyPort),
        },
        stdio: ["ignore", "ignore", "pipe"],
      });
      child.stderr?.resume();
      children.push(child);
    }
    await Promise.all(consolePorts.map((port, i) => until(`console ${i + 1}`, () => accepts(port))));
    const nginx = spawn(NGINX, ["-p", dir, "-c", join(dir, "nginx.conf"), "-e", join(dir, "error.log"), "-g", `daemon off; pid ${join(dir, "nginx.pid")};`], { stdio: ["ignore", "ignore", "pipe"] });
    let nginxErr = "";
    nginx.stderr?.on("data", (d) => (nginxErr += d));
    children.push(nginx);
    await until("nginx", async () => {
      if (nginx.exitCode !== null) throw new Error(`nginx exited: ${nginxErr}${existsSync(join(dir, "error.log")) ? readFileSync(join(dir, "error.log"), "utf8") : ""}`);
      return accepts(proxyPort);
    });
    return {
      origin: `${o.tls ? "https" : "http"}://localhost:${proxyPort}`,
      consolePorts,
      pids: { consoles: children.slice(0, count).map((c) => c.pid!), nginx: nginx.pid! },
      // After a retry nginx lists every upstream it tried ("a, b"): the last one answered.
      replicaOf: (upstream) => consolePorts.findIndex((p) => upstream?.split(",").at(-1)?.trim() === `127.0.0.1:${p}`),
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
