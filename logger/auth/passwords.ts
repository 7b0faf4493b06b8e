import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import { RpcError, RS } from "../http/errors.ts";

const KEY_LEN = 64;
const SCRYPT = { N: 16384, r: 8, p: 1 };

/** Longest password accepted anywhere (issue 14): bounds the work one guess can cause. */
export const MAX_PASSWORD_LENGTH = 1024;

// scrypt runs on libuv's thread pool (4 threads) and takes ~16 MB and tens of milliseconds each.
// At most HASH_SLOTS run at once, so a burst of sign-ins cannot take the whole pool (file reads,
// compression) or the CPU from everybody else; a few more wait, and past that the logger says it
// is busy instead of queueing without bound.
const HASH_SLOTS = 2;
const MAX_HASH_QUEUE = 64;
let running = 0;
const queue: Array<() => void> = [];
let hashes = 0;

/** Password hashes computed by this process (tests: proof that a refused guess was never hashed). */
export function hashCount(): number {
  return hashes;
}

async function slot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= HASH_SLOTS) {
    if (queue.length >= MAX_HASH_QUEUE) throw new RpcError(503, RS.Busy, "Too many password checks at once; try again in a moment");
    await new Promise<void>((resolve) => queue.push(resolve));
  }
  running++;
  try {
    return await work();
  } finally {
    running--;
    queue.shift()?.();
  }
}

function derive(password: string, salt: Buffer): Promise<Buffer> {
  return slot(
    () =>
      new Promise((resolve, reject) => {
        hashes++;
        scrypt(password.normalize("NFC"), salt, KEY_LEN, SCRYPT, (err, key) => (err ? reject(err) : resolve(key)));
      }),
  );
}

export async function hashPassword(password: string): Promise<{ hash: string; salt: string }> {
  const salt = randomBytes(16);
  const key = await derive(password, salt);
  return { hash: key.toString("base64"), salt: salt.toString("base64") };
}

export async function verifyPassword(password: string, hash: string, salt: string): Promise<boolean> {
  const key = await derive(password, Buffer.from(salt, "base64"));
  const expected = Buffer.from(hash, "base64");
  return expected.length === key.length && timingSafeEqual(key, expected);
}

// Spends the same time as a real check so that unknown usernames cannot be told apart by timing.
export async function burnPasswordCheck(password: string): Promise<false> {
  await derive(password, Buffer.alloc(16));
  return false;
}

export function passwordPolicyError(password: string, username: string): string | null {
  if (password.length < 8) return "Password must be at least 8 characters";
  if (password.length > MAX_PASSWORD_LENGTH) return `Password must be at most ${MAX_PASSWORD_LENGTH} characters`;
  if (password.toLowerCase() === username.toLowerCase()) return "Password must not equal the username";
  return null;
}
