// Strings of a UDBF file are Windows-1252. Decoding is the platform's (TextDecoder); encoding is
// the same table backwards: characters it has not become "?".

const decoder = new TextDecoder("windows-1252");
const encoderTable = new Map<string, number>();
for (let b = 0x80; b < 0x100; b++) encoderTable.set(decoder.decode(Uint8Array.of(b)), b);

/** Text of a string field: Windows-1252, trailing NULs not part of it. */
export function decodeCp1252(bytes: Uint8Array): string {
  let e = bytes.length;
  while (e > 0 && bytes[e - 1] === 0) e--;
  return decoder.decode(bytes.subarray(0, e));
}

/** Windows-1252 bytes of a text (characters it cannot hold become "?"). */
export function encodeCp1252(text: string): Uint8Array {
  const out: number[] = [];
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    out.push(c < 0x80 ? c : (encoderTable.get(ch) ?? 0x3f));
  }
  return Uint8Array.from(out);
}
