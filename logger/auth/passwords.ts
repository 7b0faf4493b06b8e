import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";

const KEY_LEN = 64;
const SCRYPT = { N: 16384, r: 8, p: 1 };

function derive(password: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize("NFC"), salt, KEY_LEN, SCRYPT, (err, key) => (err ? reject(err) : resolve(key)));
  });
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
  if (password.toLowerCase() === username.toLowerCase()) return "Password must not equal the username";
  return null;
}
