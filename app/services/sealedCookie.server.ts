// The session cookie is sealed, not only signed (issue 24): it carries the logger's access and
// refresh tokens, and a signed cookie is base64 JSON that anyone holding a copy (a proxy's log,
// a backup, a screenshot of the developer tools) can read. AES-256-GCM encrypts and
// authenticates in one step; Web Crypto does it, so there is no library to add.
//
// Keys are derived per secret with HKDF (the secrets are operator-chosen text, not keys), so the
// rotation of SESSION_SECRET works as before: the first secret seals, every listed one opens.

const VERSION = "v1";
const IV_BYTES = 12;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

async function deriveKey(secret: string): Promise<CryptoKey> {
  const material = await crypto.subtle.importKey("raw", encoder.encode(secret), "HKDF", false, ["deriveKey"]);
  return crypto.subtle.deriveKey(
    { name: "HKDF", hash: "SHA-256", salt: encoder.encode("loggia-session-cookie"), info: encoder.encode(`aes-256-gcm ${VERSION}`) },
    material,
    { name: "AES-GCM", length: 256 },
    false,
    ["encrypt", "decrypt"],
  );
}

export interface Sealer {
  seal(value: unknown): Promise<string>;
  /** The value sealed by any of the secrets, or null for anything else (tampered, foreign, old format). */
  open(text: string): Promise<unknown>;
}

export function sealer(secrets: readonly string[]): Sealer {
  if (!secrets.length) throw new Error("sealer: no secret");
  let keys: Promise<CryptoKey[]> | null = null;
  const allKeys = () => (keys ??= Promise.all(secrets.map(deriveKey)));
  return {
    async seal(value) {
      const [key] = await allKeys();
      const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
      const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv }, key!, encoder.encode(JSON.stringify(value))));
      const out = new Uint8Array(IV_BYTES + sealed.length);
      out.set(iv);
      out.set(sealed, IV_BYTES);
      return `${VERSION}.${Buffer.from(out).toString("base64url")}`;
    },
    async open(text) {
      if (typeof text !== "string" || !text.startsWith(`${VERSION}.`)) return null;
      const bytes = Buffer.from(text.slice(VERSION.length + 1), "base64url");
      if (bytes.length <= IV_BYTES + 16) return null;
      const iv = bytes.subarray(0, IV_BYTES);
      const body = bytes.subarray(IV_BYTES);
      for (const key of await allKeys()) {
        try {
          const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv }, key, body);
          return JSON.parse(decoder.decode(plain)) as unknown;
        } catch {
          // Not this key (or tampered): try the next.
        }
      }
      return null;
    },
  };
}
