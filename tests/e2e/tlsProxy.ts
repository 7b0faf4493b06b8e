import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { CONSOLE_NODE_FLAGS } from "../../server/flags.ts";
import { freePort } from "./stack";

// A deployment as a real site has it: Debian's nginx terminating TLS (a throwaway self-signed
// certificate from openssl) in front of a console of its own, which uses the run's embedded
// logger. nginx runs unprivileged-style from a temp prefix: `-p <dir> -c <conf> -e <log>`.

const root = resolve(import.meta.dirname, "../..");
const NGINX = ["/usr/sbin/nginx", "/usr/bin/nginx"].find((p) => existsSync(p)) ?? "nginx";

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

export interface TlsSite {
  /** https://localhost:<port> — what the browser uses. */
  origin: string;
  consolePort: number;
  stop(): Promise<void>;
}

/**
 * Starts a console (with `consoleEnv`, e.g. TRUST_PROXY=1 or PUBLIC_ORIGIN) and nginx in front of
 * it on https://localhost:<spare port>: proxied as a deployment would (Host, X-Forwarded-Proto,
 * -Host and -For, WebSocket upgrades, no buffering for the live stream, uploads up to 25 MB).
 */
export async function startTlsSite(consoleEnv: (httpsPort: number) => Record<string, string>): Promise<TlsSite> {
  const dir = mkdtempSync(join(tmpdir(), "loggia-e2e-tls-"));
  const [httpsPort, consolePort] = [await freePort(), await freePort()];
  const children: ChildProcess[] = [];
  const stopAll = async () => {
    await Promise.all(children.map(stop));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    // node-opcua's PKI (loaded in this worker by the data-source specs' OPC UA test server) sets
    // process.env.OPENSSL_CONF for its own openssl runs, even to "undefined": openssl gets the
    // system's configuration here, whatever ran in this process before.
    const { OPENSSL_CONF: _conf, RANDFILE: _rand, ...env } = process.env;
    const cert = spawnSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem"), "-days", "1", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost"], { encoding: "utf8", env });
    if (cert.status !== 0) throw new Error(`openssl: ${cert.stderr}`);
    // nginx's workers drop to an unprivileged user when started as root: its temp folders must be theirs to write.
    for (const sub of ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"]) mkdirSync(join(dir, sub));
    chmodSync(dir, 0o755);
    for (const sub of ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"]) chmodSync(join(dir, sub), 0o777);
    writeFileSync(
      join(dir, "nginx.conf"),
      `worker_processes 1;
error_log ${join(dir, "error.log")} warn;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${join(dir, "client_body")};
  proxy_temp_path ${join(dir, "proxy")};
  fastcgi_temp_path ${join(dir, "fastcgi")};
  uwsgi_temp_path ${join(dir, "uwsgi")};
  scgi_temp_path ${join(dir, "scgi")};
  map $http_upgrade $connection_upgrade { default upgrade; '' close; }
  server {
    listen 127.0.0.1:${httpsPort} ssl;
    server_name localhost;
    ssl_certificate ${join(dir, "cert.pem")};
    ssl_certificate_key ${join(dir, "key.pem")};
    client_max_body_size 25m;
    location / {
      proxy_pass http://127.0.0.1:${consolePort};
      proxy_http_version 1.1;
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_set_header X-Forwarded-Host $host:$server_port;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header Upgrade $http_upgrade;
      proxy_set_header Connection $connection_upgrade;
      proxy_buffering off;
      proxy_read_timeout 1h;
    }
  }
}
`,
    );
    const consoleProc = spawn(process.execPath, [...CONSOLE_NODE_FLAGS, join("server", "main.ts"), "build/server/index.js"], {
      cwd: root,
      env: {
        ...process.env,
        PORT: String(consolePort),
        HOST: "127.0.0.1",
        LOGGER_URL: `http://127.0.0.1:${process.env.E2E_LOGGER_PORT}`,
        NODE_ENV: "production",
        SESSION_SECRET: "e2e-tls-secret-0123456789abcdef",
        ...consoleEnv(httpsPort),
      },
      stdio: ["ignore", "ignore", "pipe"],
    });
    consoleProc.stderr?.resume();
    children.push(consoleProc);
    await until("the console", () => accepts(consolePort));
    const nginx = spawn(NGINX, ["-p", dir, "-c", join(dir, "nginx.conf"), "-e", join(dir, "error.log"), "-g", `daemon off; pid ${join(dir, "nginx.pid")};`], { stdio: ["ignore", "ignore", "pipe"] });
    let nginxErr = "";
    nginx.stderr?.on("data", (d) => (nginxErr += d));
    children.push(nginx);
    await until("nginx", async () => {
      if (nginx.exitCode !== null) throw new Error(`nginx exited: ${nginxErr}${existsSync(join(dir, "error.log")) ? readFileSync(join(dir, "error.log"), "utf8") : ""}`);
      return accepts(httpsPort);
    });
    return { origin: `https://localhost:${httpsPort}`, consolePort, stop: stopAll };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
