/**
 * Word 97-2003 (DOC) files are OLE2 compound files, as are Excel and PowerPoint files, Outlook
 * messages and Windows installers (MSI). The directory tells them apart: a Word document has a
 * `WordDocument` stream. One with a `Macros` or `_VBA_PROJECT` storage carries VBA code and is
 * refused like an executable. Reads the directory only (following the allocation table), never
 * a stream.
 */

const SIGNATURE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const END_OF_CHAIN = 0xfffffffe;
/** More directory sectors than a 20 MB file can hold means a loop in the chain. */
const MAX_STEPS = 50_000;

export const looksLikeOle2 = (b: Uint8Array) => b.length >= 512 && SIGNATURE.every((v, i) => b[i] === v);

export type Ole2Kind = 'word' | 'word_with_macros' | 'other' | 'malformed';

/** What an OLE2 compound file holds, from its directory's stream and storage names. */
export function ole2Kind(bytes: Uint8Array): Ole2Kind {
  try {
    const names = directoryNames(bytes);
    if (!names) return 'malformed';
    if (!names.has('WordDocument')) return 'other';
    return names.has('Macros') || names.has('_VBA_PROJECT') || names.has('VBA') ? 'word_with_macros' : 'word';
  } catch {
    return 'malformed';
  }
}

function directoryNames(bytes: Uint8Array): Set<string> | undefined {
  if (!looksLikeOle2(bytes)) return undefined;
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const shift = dv.getUint16(30, true);
  if (shift !== 9 && shift !== 12) return undefined;
  const size = 1 << shift;
  const sector = (n: number) => {
    const start = (n + 1) * size;
    if (start + size > bytes.length) throw new Error('sector out of range');
    return start;
  };

  // The allocation table's own sectors: 109 in the header, the rest in a chain of DIFAT sectors.
  const fatSectors: number[] = [];
  const fatCount = dv.getUint32(44, true);
  for (let i = 0; i < 109 && fatSectors.length < fatCount; i++) fatSectors.push(dv.getUint32(76 + i * 4, true));
  let difat = dv.getUint32(68, true);
  for (let steps = 0; fatSectors.length < fatCount && difat !== END_OF_CHAIN; steps++) {
    if (steps > MAX_STEPS) return undefined;
    const at = sector(difat);
    for (let i = 0; i < size / 4 - 1 && fatSectors.length < fatCount; i++) fatSectors.push(dv.getUint32(at + i * 4, true));
    difat = dv.getUint32(at + size - 4, true);
  }
  const perSector = size / 4;
  const next = (n: number) => {
    const fat = fatSectors[Math.floor(n / perSector)];
    if (fat === undefined) throw new Error('sector outside the allocation table');
    return dv.getUint32(sector(fat) + (n % perSector) * 4, true);
  };

  const names = new Set<string>();
  let dir = dv.getUint32(48, true);
  for (let steps = 0; dir !== END_OF_CHAIN; steps++) {
    if (steps > MAX_STEPS) return undefined;
    const at = sector(dir);
    for (let e = 0; e < size / 128; e++) {
      const entry = at + e * 128;
      const length = dv.getUint16(entry + 64, true);
      const type = bytes[entry + 66];
      // 1 storage, 2 stream, 5 root; 0 is an unused slot. The name is UTF-16LE with its NUL.
      if (type === 0 || length < 2 || length > 64) continue;
      let name = '';
      for (let i = 0; i < length - 2; i += 2) name += String.fromCharCode(dv.getUint16(entry + i, true));
      names.add(name);
    }
    dir = next(dir);
  }
  return names;
}
