/**
 * Java's application class-data sharing (CDS) for DynamoDB Local: a dynamic archive of the classes
 * a start loads, parsed and verified once, then mapped by every later JVM instead of read from
 * the jars again. A start is most of what a short-lived DynamoDB Local costs (the admin CLI,
 * `npm run invoke`, each test runtime), and the archive takes about a third of its CPU off.
 *
 * Java will not archive classes from a class path holding a non-empty directory, and
 * DynamoDBLocal.jar's manifest puts its own directory (".") on the class path, with the
 * native libraries beside its jars. So the JVM runs a copy of the jar whose manifest entry is
 * renamed (Java no longer reads it) with the manifest's jars named on `-cp` instead: the same
 * classes from the same files, minus entries no class loads from.
 *
 * Everything lives in a cache directory keyed by the JDK and the jar (a new JDK or simulator
 * gets its own), git-ignored under node_modules. The archive is made once, by the first start
 * that finds none (a short run of its own: a start and a few requests of each kind, then an
 * exit, when Java writes it), and published by a rename only once Java exited cleanly and the
 * file looks whole: Java crashes on a truncated archive, while one made by another JDK or for
 * other jars it only ignores. A start that fails with the archive drops it and starts without.
 */
import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { alive } from './pids';

const MANIFEST = 'META-INF/MANIFEST.MF';
// Same length, so the rename is a patch of the name's bytes where the zip stores them.
const RENAMED = 'META-INF/MANIFEST.CD';
/** The first four bytes of a dynamic archive (HotSpot's CDS_DYNAMIC_ARCHIVE_MAGIC, little-endian). */
const DYNAMIC_ARCHIVE_MAGIC = 0xf00baba8;

export interface JavaLaunch {
  /** What follows the JVM flags: `-cp <jars> <main class>`, or `-jar <jar>` when CDS cannot be used. */
  target: string[];
  /** The published archive, if one is made. */
  archive?: string;
  /** The cache directory of this JDK and jar; undefined when CDS cannot be used. */
  dir?: string;
}

/** The `java` that spawn('java') runs, resolved through its links to the JDK's own binary. */
function javaBinary(): string | undefined {
  for (const p of (process.env.PATH ?? '').split(delimiter)) {
    if (!p) continue;
    const candidate = join(p, 'java');
    try {
      if (statSync(candidate).isFile()) return realpathSync(candidate);
    } catch {}
  }
  return undefined;
}

/** The cache key: the JDK (its binary and class library, which an update replaces) and the jar. */
function cacheKey(jar: string): string | undefined {
  const java = javaBinary();
  if (!java) return undefined;
  const modules = join(dirname(dirname(java)), 'lib', 'modules');
  const parts = [java, realpathSync(jar)];
  for (const f of [modules, jar]) {
    try {
      const s = statSync(f);
      parts.push(`${s.size}:${s.mtimeMs}`);
    } catch {
      parts.push('-');
    }
  }
  return createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, 16);
}

interface ZipEntry {
  /** Offset of the name in the central directory and in the local header. */
  centralName: number;
  localName: number;
  method: number;
  dataStart: number;
  compressedSize: number;
}

/** The manifest's entry in a jar (a zip without zip64: DynamoDBLocal.jar is a few MB). */
function findManifest(zip: Buffer): ZipEntry | undefined {
  // End of central directory: at least 22 bytes from the end, followed by a comment of up to 64 KiB.
  for (let eocd = zip.length - 22; eocd >= Math.max(0, zip.length - 22 - 0xffff); eocd--) {
    if (zip.readUInt32LE(eocd) !== 0x06054b50) continue;
    const count = zip.readUInt16LE(eocd + 10);
    let at = zip.readUInt32LE(eocd + 16);
    for (let i = 0; i < count && zip.readUInt32LE(at) === 0x02014b50; i++) {
      const nameLength = zip.readUInt16LE(at + 28);
      const next = at + 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
      if (zip.toString('latin1', at + 46, at + 46 + nameLength) === MANIFEST) {
        const local = zip.readUInt32LE(at + 42);
        if (zip.readUInt32LE(local) !== 0x04034b50) return undefined;
        return {
          centralName: at + 46,
          localName: local + 30,
          method: zip.readUInt16LE(at + 10),
          dataStart: local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28),
          compressedSize: zip.readUInt32LE(at + 20),
        };
      }
      at = next;
    }
    return undefined;
  }
  return undefined;
}

/** A manifest's main attributes, continuation lines joined. */
function manifestAttributes(text: string): Map<string, string> {
  const attrs = new Map<string, string>();
  let last: string | undefined;
  for (const line of text.split(/\r?\n/)) {
    if (line === '') break; // the main section ends at the first blank line
    if (line.startsWith(' ') && last) attrs.set(last, attrs.get(last) + line.slice(1));
    else {
      const colon = line.indexOf(':');
      last = line.slice(0, colon);
      attrs.set(last, line.slice(colon + 1).trim());
    }
  }
  return attrs;
}

/**
 * The copy of the jar without its manifest, and the class path and main class its manifest
 * named: only the jars, resolved against the original jar's directory as Java resolves them.
 * Written under a name of its own, then renamed: starts racing on a fresh cache see one whole copy.
 */
function prepareCopy(jar: string, dir: string): { classpath: string[]; mainClass: string } | undefined {
  const zip = readFileSync(jar);
  const entry = findManifest(zip);
  if (!entry || (entry.method !== 0 && entry.method !== 8)) return undefined;
  const raw = zip.subarray(entry.dataStart, entry.dataStart + entry.compressedSize);
  const attrs = manifestAttributes((entry.method === 8 ? inflateRawSync(raw) : raw).toString('utf8'));
  const mainClass = attrs.get('Main-Class');
  if (!mainClass) return undefined;
  const jarDir = dirname(jar);
  const libs = (attrs.get('Class-Path') ?? '')
    .split(/\s+/)
    .filter((e) => e.endsWith('.jar'))
    .map((e) => resolve(jarDir, decodeURIComponent(e)))
    .filter((f) => existsSync(f));
  const copy = join(dir, 'DynamoDBLocal.jar');
  if (!existsSync(copy)) {
    zip.write(RENAMED, entry.centralName, 'latin1');
    zip.write(RENAMED, entry.localName, 'latin1');
    const tmp = `${copy}.${process.pid}.tmp`;
    writeFileSync(tmp, zip);
    // A link, not a rename: the first copy stays. An archive records the jar's size and time,
    // and a second copy renamed over the first would make Java ignore the archive made with it.
    try {
      linkSync(tmp, copy);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    } finally {
      rmSync(tmp, { force: true });
    }
  }
  return { classpath: [copy, ...libs], mainClass };
}

/** Whether `file` holds a whole dynamic archive as far as its header tells: its magic number. */
function looksWhole(file: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const head = Buffer.alloc(4);
    return readSync(fd, head, 0, 4, 0) === 4 && head.readUInt32LE(0) === DYNAMIC_ARCHIVE_MAGIC && statSync(file).size > 1 << 20;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Where the cache lives: beside the simulator's package, in node_modules/.cache (git-ignored). */
export function cdsCacheRoot(emulatorDir: string): string {
  return process.env.DYNAMODB_LOCAL_CDS_DIR || resolve(emulatorDir, '..', '..', '.cache', 'dynamodb-local-cds');
}

/** How to launch DynamoDB Local: with the archive when there is one, from the jar's copy when CDS can be used. */
export function javaLaunch(emulatorDir: string): JavaLaunch {
  const jar = join(emulatorDir, 'DynamoDBLocal.jar');
  const plain: JavaLaunch = { target: ['-jar', jar] };
  if (process.env.DYNAMODB_LOCAL_CDS === 'off') return plain;
  try {
    const key = cacheKey(jar);
    if (!key) return plain;
    const dir = join(cdsCacheRoot(emulatorDir), key);
    mkdirSync(dir, { recursive: true });
    const copy = prepareCopy(jar, dir);
    if (!copy) return plain;
    const archive = join(dir, 'classes.jsa');
    return {
      target: ['-cp', copy.classpath.join(delimiter), copy.mainClass],
      archive: existsSync(archive) ? archive : undefined,
      dir,
    };
  } catch {
    return plain; // an unwritable cache or an unexpected jar: start as before
  }
}

/**
 * The lock of the one process that makes a cache directory's archive (its pid in a file made
 * exclusively). A holder that died leaves its lock to the next; a failed attempt leaves a mark,
 * so a JDK that cannot make one is not asked again at every start.
 */
export function claimArchiveMaking(dir: string): { tmp: string; finish(outcome: 'made' | 'failed' | 'again'): void } | undefined {
  if (existsSync(join(dir, 'failed'))) return undefined;
  const lock = join(dir, 'make.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(lock, String(process.pid), { flag: 'wx' });
      const tmp = join(dir, `classes.${process.pid}.jsa.tmp`);
      return {
        tmp,
        // 'again': a failure of the moment (a taken port), not of the JDK; the next start tries.
        finish(outcome) {
          if (outcome === 'made' && looksWhole(tmp)) renameSync(tmp, join(dir, 'classes.jsa'));
          else {
            rmSync(tmp, { force: true });
            if (outcome !== 'again') writeFileSync(join(dir, 'failed'), '');
          }
          rmSync(lock, { force: true });
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return undefined;
      const holder = Number(readFileSyncOr(lock));
      if (Number.isInteger(holder) && holder > 0 && alive(holder)) return undefined;
      rmSync(lock, { force: true });
    }
  }
  return undefined;
}

function readFileSyncOr(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/** An archive a JVM could not start with: removed, and marked so none is made again for this key. */
export function dropArchive(launch: JavaLaunch) {
  if (!launch.archive || !launch.dir) return;
  rmSync(launch.archive, { force: true });
  writeFileSync(join(launch.dir, 'failed'), '');
}
