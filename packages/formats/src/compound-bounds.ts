/**
 * Whether an OLE compound file's structure fits inside the file, checked before any reader
 * trusts it ([MS-CFB]). Readers such as msgreader allocate whatever size a directory entry
 * declares and follow sector chains until they end: a few kilobytes that declare gigabytes, or a
 * chain that loops, make them allocate without bound. Here every chain is walked once with each
 * sector owned by at most one chain, so a chain cannot revisit a sector, two streams cannot share
 * one, and every declared size must be covered by sectors the file really holds. What a reader
 * allocates afterwards is then bounded by the file's own size.
 *
 * Returns why the file is refused, or null when it is sound. Only the structure is checked;
 * what the streams hold is for their readers.
 */

const SIGNATURE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const HEADER_DIFAT_ENTRIES = 109;
const END_OF_CHAIN = 0xfffffffe;
const FREE = 0xffffffff;
const NO_ENTRY = 0xffffffff;
const ENTRY_SIZE = 128;
const MINI_SECTOR = 64;
const MINI_CUTOFF = 4096;
const STORAGE = 1;
const STREAM = 2;
const ROOT = 5;

class Refused extends Error {}

const refuse = (why: string): never => {
  throw new Refused(why);
};

interface Layout {
  view: DataView;
  sectorSize: number;
  /** Sectors that begin inside the file; the last may be cut short by the file's end. */
  sectors: number;
  /** Which sectors a chain has claimed already. */
  owned: Uint8Array;
  fat: number[];
}

const sectorOffset = (l: Layout, n: number) => (n + 1) * l.sectorSize;

function u32(l: Layout, at: number): number {
  if (at + 4 > l.view.byteLength) refuse('a table lies past the end of the file');
  return l.view.getUint32(at, true);
}

function claim(l: Layout, n: number, what: string): void {
  if (n >= l.sectors) refuse(`${what} points to sector ${n}, past the end of the file`);
  if (l.owned[n]) refuse(`${what} revisits sector ${n}, which another chain or itself holds`);
  l.owned[n] = 1;
}

function nextInFat(l: Layout, n: number): number {
  const perSector = l.sectorSize / 4;
  const fatSector = l.fat[Math.floor(n / perSector)];
  if (fatSector === undefined) return refuse(`sector ${n} is not covered by the allocation table`);
  return u32(l, sectorOffset(l, fatSector) + 4 * (n % perSector));
}

/** A chain's sectors, each claimed; walking stops at its end or after `upTo` sectors. */
function chain(l: Layout, start: number, what: string, upTo = Infinity): number[] {
  const out: number[] = [];
  for (let n = start; n !== END_OF_CHAIN && out.length < upTo; n = nextInFat(l, n)) {
    claim(l, n, what);
    out.push(n);
  }
  return out;
}

function readFat(l: Layout): void {
  const count = u32(l, 0x2c);
  if (count > l.sectors)
    refuse(`it declares ${count} allocation sectors in a file of ${l.sectors}`);
  const listed: number[] = [];
  for (let i = 0; i < Math.min(count, HEADER_DIFAT_ENTRIES); i++) listed.push(u32(l, 0x4c + 4 * i));
  const perDifat = l.sectorSize / 4 - 1;
  const difatCount = u32(l, 0x48);
  let next = u32(l, 0x44);
  for (let i = 0; listed.length < count; i++) {
    if (i >= difatCount || next === END_OF_CHAIN || next === FREE)
      refuse(`it declares ${count} allocation sectors but lists ${listed.length}`);
    claim(l, next, 'the allocation table list');
    const at = sectorOffset(l, next);
    for (let j = 0; j < perDifat && listed.length < count; j++) listed.push(u32(l, at + 4 * j));
    next = u32(l, at + 4 * perDifat);
  }
  for (const n of listed) claim(l, n, 'the allocation table');
  l.fat = listed;
}

interface Entry {
  index: number;
  type: number;
  left: number;
  right: number;
  child: number;
  start: number;
  size: number;
}

function entryAt(l: Layout, dirSectors: number[], index: number): Entry {
  const perSector = l.sectorSize / ENTRY_SIZE;
  const sector = dirSectors[Math.floor(index / perSector)];
  if (sector === undefined)
    return refuse(`a directory entry points to entry ${index}, past the directory`);
  const at = sectorOffset(l, sector) + ENTRY_SIZE * (index % perSector);
  const high = u32(l, at + 0x7c);
  // Version 3 files may leave garbage in a size's high half ([MS-CFB] 2.6.3); version 4 may not.
  if (l.sectorSize === 4096 && high !== 0)
    refuse(`entry ${index} declares a size of 4 GiB or more`);
  return {
    index,
    type: l.view.getUint8(at + 0x42),
    left: u32(l, at + 0x44),
    right: u32(l, at + 0x48),
    child: u32(l, at + 0x4c),
    start: u32(l, at + 0x74),
    size: u32(l, at + 0x78),
  };
}

/** Every entry reachable from the root, each reached once: a looping tree is refused. */
function reachable(l: Layout, dirSectors: number[], root: Entry): Entry[] {
  const seen = new Set<number>([0]);
  const out: Entry[] = [];
  const pending = root.child === NO_ENTRY ? [] : [root.child];
  while (pending.length > 0) {
    const index = pending.pop()!;
    if (seen.has(index)) refuse(`the directory reaches entry ${index} twice`);
    seen.add(index);
    const entry = entryAt(l, dirSectors, index);
    if (entry.type !== STORAGE && entry.type !== STREAM)
      refuse(`the directory reaches entry ${index}, which is neither a storage nor a stream`);
    out.push(entry);
    for (const link of [entry.left, entry.right, entry.type === STORAGE ? entry.child : NO_ENTRY])
      if (link !== NO_ENTRY) pending.push(link);
  }
  return out;
}

/** The root's chain holds the small streams; readers walk it whole, so it is always checked. */
function checkMiniStreams(l: Layout, root: Entry, small: Entry[]): void {
  if (root.size > l.view.byteLength)
    refuse(`the small-stream container declares ${root.size} bytes, more than the whole file`);
  const container = chain(l, root.start, 'the small-stream container');
  if (small.length === 0) return;
  if (container.length * l.sectorSize < root.size)
    refuse('the small-stream container is shorter than it declares');
  const miniSectors = Math.ceil(root.size / MINI_SECTOR);
  const miniFat = chain(l, u32(l, 0x3c), 'the small-stream table');
  const owned = new Uint8Array(miniSectors);
  const perSector = l.sectorSize / 4;
  for (const entry of small) {
    const needed = Math.ceil(entry.size / MINI_SECTOR);
    let length = 0;
    for (let n = entry.start; n !== END_OF_CHAIN; length++) {
      if (n >= miniSectors) refuse(`entry ${entry.index} points past the small-stream container`);
      if (owned[n]) refuse(`entry ${entry.index} revisits small sector ${n}`);
      owned[n] = 1;
      const tableSector = miniFat[Math.floor(n / perSector)];
      if (tableSector === undefined) refuse(`small sector ${n} is not in the small-stream table`);
      n = u32(l, sectorOffset(l, tableSector!) + 4 * (n % perSector));
    }
    if (length < needed) refuse(`entry ${entry.index} is shorter than the size it declares`);
  }
}

function check(bytes: Uint8Array): void {
  if (bytes.byteLength < 512 || SIGNATURE.some((b, i) => bytes[i] !== b))
    refuse('it is not a compound file');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const shift = view.getUint16(0x1e, true);
  if (shift !== 9 && shift !== 12) refuse(`its sector size (2^${shift}) is not 512 or 4096`);
  if (view.getUint16(0x20, true) !== 6) refuse('its small sectors are not 64 bytes');
  const sectorSize = 2 ** shift;
  const sectors = Math.max(0, Math.ceil((bytes.byteLength - sectorSize) / sectorSize));
  const l: Layout = { view, sectorSize, sectors, owned: new Uint8Array(sectors), fat: [] };
  readFat(l);
  const dirSectors = chain(l, u32(l, 0x30), 'the directory');
  const root = entryAt(l, dirSectors, 0);
  if (root.type !== ROOT) refuse('its first directory entry is not the root');
  const small: Entry[] = [];
  for (const entry of reachable(l, dirSectors, root)) {
    if (entry.type !== STREAM || entry.size === 0) continue;
    if (entry.size > bytes.byteLength)
      refuse(`entry ${entry.index} declares ${entry.size} bytes, more than the whole file`);
    if (entry.size < MINI_CUTOFF) {
      small.push(entry);
      continue;
    }
    const needed = Math.ceil(entry.size / sectorSize);
    if (chain(l, entry.start, `entry ${entry.index}`, needed).length < needed)
      refuse(`entry ${entry.index} is shorter than the size it declares`);
  }
  checkMiniStreams(l, root, small);
}

export function compoundFileProblem(bytes: Uint8Array): string | null {
  try {
    check(bytes);
    return null;
  } catch (err) {
    if (err instanceof Refused) return err.message;
    throw err;
  }
}
