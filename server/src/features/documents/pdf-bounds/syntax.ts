/** Byte classes of PDF's syntax. */
export const WHITE = 1;
const DELIM = 2;
export const charClass = new Uint8Array(256);
for (const c of [0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]) charClass[c] = WHITE;
for (const c of "()<>[]{}/%") charClass[c.charCodeAt(0)] = DELIM;

export function isHex(byte: number): boolean {
  return (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66);
}
