/**
 * Runs the real AWS DynamoDB Local jar (shipped inside the amplify-dynamodb-simulator npm
 * package) with the machine's Java. Nothing is downloaded at run time. We own the Java
 * process and stop it ourselves: signals to a wrapper do not always reach it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { claimArchiveMaking, dropArchive, type JavaLaunch, javaLaunch } from './dynamodb-cds';

const require = createRequire(import.meta.url);

export const emulatorDir = () => join(dirname(require.resolve('amplify-dynamodb-simulator/package.json')), 'emulator');

export interface DynamoDbLocal {
  endpoint: string;
  port: number;
  pid: number;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Whether DynamoDB Local itself answers on `port`: a ListTables answered as DynamoDB answers it.
 * A port that merely accepts connections may be someone else's (below).
 */
async function answersAsDynamoDb(port: number): Promise<boolean> {
  try {
    return Array.isArray(((await dynamoDbCall(port, 'ListTables', {}, 5_000)) as { TableNames?: unknown }).TableNames);
  } catch {
    return false;
  }
}

/**
 * Whether process `pid` holds the listening TCP socket of `port` (from /proc: the socket's inode
 * among the process's open files). Undefined where /proc cannot tell.
 */
function listensOn(pid: number, port: number): boolean | undefined {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  const inodes = new Set<string>();
  try {
    for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
      for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
        const f = line.trim().split(/\s+/);
        // local_address is ADDR:PORT in hex; state 0A is LISTEN; the inode is the 10th field.
        if (f[1]?.endsWith(`:${hex}`) && f[3] === '0A') inodes.add(f[9]!);
      }
    }
    return readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        return inodes.has(/^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1] ?? '');
      } catch {
        return false;
      }
    });
  } catch {
    return undefined;
  }
}

/**
 * How DynamoDB Local's JVM compiles: `quick` stops at the first JIT tier (C1), `full` adds the
 * optimising tier (C2). Measured on two cores: C2 spends more CPU compiling than it saves in runs
 * of seconds to a few minutes of light or bursty load (Java CPU per webhook delivery 2.8 ms with
 * C2, 1.3 ms without; two integration test files 29.5 s against 18.3 s), while under load
 * sustained past about 20 s it cuts what an item costs by about a third once compiled (a
 * transaction's put 0.58 ms of Java CPU against 0.91 ms; 10,000 imported rows a median 49 s over
 * eight runs against 75 s). So the tests and the one-shot CLIs run `quick`; `npm start`, a server
 * that may take an import, and the long benches run `full`. `DYNAMODB_LOCAL_JIT` (`quick` or
 * `full`) sets the default.
 */
export type Jit = 'quick' | 'full';

/**
 * The JVM's flags for a `jit` mode. `quick` also takes the serial collector: on two cores the JVM
 * picks G1, whose concurrent threads cost a short run more than they save; a start and a small
 * workload (a table, 300 writes and reads) took a median 6.8 s of Java CPU with it against 7.9 s
 * with G1, the start alone 4.6 s against 5.2 s (six runs each, alternating, on a loaded machine).
 * A test run starts a few dozen of them: every `npm start` of the e2e and browser files.
 */
export function jvmFlags(jit: Jit): string[] {
  return jit === 'quick' ? ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC'] : [];
}
export function jitFromEnv(fallback: Jit): Jit {
  const v = process.env.DYNAMODB_LOCAL_JIT;
  if (v === undefined || v === '') return fallback;
  if (v !== 'quick' && v !== 'full') throw new Error(`DYNAMODB_LOCAL_JIT must be quick or full, got "${v}"`);
  return v;
}

/** Start DynamoDB Local. `dbPath` persists data there; without it the data lives in memory. */
export async function startDynamoDbLocal(opts: { dbPath?: string; port?: number; jit?: Jit } = {}): Promise<DynamoDbLocal> {
  const jit = opts.jit ?? jitFromEnv('quick');
  let launch = javaLaunch(emulatorDir());
  if (launch.dir && !launch.archive) launch = await makeArchive(launch);
  // A port from freePort() is free when asked, not when Java binds it a second or two later:
  // another process may take it meanwhile (seen: another npm start's local SQS, which then
  // answered our DynamoDB requests). Java then fails to bind (its JVM lives on, not listening);
  // a port we chose ourselves is chosen again.
  let suspect: JavaLaunch | undefined;
  for (let attempt = 1; ; attempt++) {
    const port = opts.port ?? (await freePort());
    try {
      const ddb = await startOn(port, opts.dbPath, jit, launch);
      if (suspect) dropArchive(suspect);
      return ddb;
    } catch (err) {
      // An archive never stops a start (Java crashes on a damaged one): a JVM that ended with
      // one is started again without it, and the archive dropped if that one starts.
      if (err instanceof JavaExitedError && launch.archive) {
        suspect = launch;
        launch = { ...launch, archive: undefined };
        continue;
      }
      if (opts.port !== undefined || !(err instanceof PortTakenError) || attempt >= 5) throw err;
    }
  }
}

/**
 * Makes the class-data archive (dev/dynamodb-cds.ts) when this process is the one to: a JVM of
 * its own, started, given one request of each kind the service makes (the classes they load
 * are archived too), and stopped, when Java writes the archive. Starts that find another
 * process making it go on without one. Answers the launch to start with.
 */
async function makeArchive(launch: JavaLaunch): Promise<JavaLaunch> {
  const claim = claimArchiveMaking(launch.dir!);
  if (!claim) return launch;
  let outcome: 'made' | 'failed' | 'again' = 'failed';
  try {
    const ddb = await startOn(await freePort(), undefined, 'quick', launch, [`-XX:ArchiveClassesAtExit=${claim.tmp}`]);
    try {
      await exercise(ddb.port);
    } finally {
      // Java writes the archive as it exits: a SIGTERM, then time for the writing. One killed
      // while writing leaves the making to the next start.
      outcome = (await ddb.stopAndWait(START_CPU_S)) ? 'made' : 'again';
    }
  } catch (err) {
    if (err instanceof PortTakenError) outcome = 'again';
  } finally {
    claim.finish(outcome);
  }
  const made = javaLaunch(emulatorDir());
  return made.archive ? made : launch;
}

/** A table with an index and a stream, and the item, query, transaction and batch calls on it. */
async function exercise(port: number) {
  const S = (s: string) => ({ S: s });
  const key = { PK: S('p'), SK: S('s1') };
  const T = 'cds';
  await dynamoDbCall(port, 'CreateTable', {
    TableName: T,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: ['PK', 'SK', 'G1PK', 'G1SK'].map((a) => ({ AttributeName: a, AttributeType: 'S' })),
    KeySchema: [
      { AttributeName: 'PK', KeyType: 'HASH' },
      { AttributeName: 'SK', KeyType: 'RANGE' },
    ],
    GlobalSecondaryIndexes: [
      {
        IndexName: 'GSI1',
        KeySchema: [
          { AttributeName: 'G1PK', KeyType: 'HASH' },
          { AttributeName: 'G1SK', KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      },
    ],
    StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
  });
  for (const sk of ['s1', 's2', 's3']) {
    await dynamoDbCall(port, 'PutItem', {
      TableName: T,
      Item: { PK: S('p'), SK: S(sk), G1PK: S('g'), G1SK: S(sk), n: { N: '1' }, l: { L: [S('a')] }, m: { M: { b: { BOOL: true } } } },
      ConditionExpression: 'attribute_not_exists(PK)',
    });
  }
  await dynamoDbCall(port, 'GetItem', { TableName: T, Key: key, ConsistentRead: true });
  await dynamoDbCall(port, 'Query', {
    TableName: T,
    IndexName: 'GSI1',
    KeyConditionExpression: 'G1PK = :g AND begins_with(G1SK, :s)',
    ExpressionAttributeValues: { ':g': S('g'), ':s': S('s') },
    Limit: 2,
    ScanIndexForward: false,
  });
  await dynamoDbCall(port, 'UpdateItem', {
    TableName: T,
    Key: key,
    UpdateExpression: 'SET n = n + :one, #a = if_not_exists(#a, :z) REMOVE l',
    ConditionExpression: 'attribute_exists(PK)',
    ExpressionAttributeNames: { '#a': 'a' },
    ExpressionAttributeValues: { ':one': { N: '1' }, ':z': S('z') },
    ReturnValues: 'ALL_NEW',
  });
  await dynamoDbCall(port, 'TransactWriteItems', {
    TransactItems: [
      { Put: { TableName: T, Item: { PK: S('q'), SK: S('1') } } },
      { ConditionCheck: { TableName: T, Key: { PK: S('p'), SK: S('s2') }, ConditionExpression: 'attribute_exists(PK)' } },
      { Delete: { TableName: T, Key: { PK: S('p'), SK: S('s3') } } },
    ],
  });
  await dynamoDbCall(port, 'BatchWriteItem', {
    RequestItems: { [T]: [{ PutRequest: { Item: { PK: S('b'), SK: S('1') } } }, { DeleteRequest: { Key: { PK: S('b'), SK: S('2') } } }] },
  });
  await dynamoDbCall(port, 'BatchGetItem', { RequestItems: { [T]: { Keys: [{ PK: S('b'), SK: S('1') }] } } });
  await dynamoDbCall(port, 'Scan', { TableName: T, FilterExpression: 'n > :z', ExpressionAttributeValues: { ':z': { N: '0' } } });
  await dynamoDbCall(port, 'DeleteItem', { TableName: T, Key: key });
}

/** One call of DynamoDB's JSON protocol, unsigned: DynamoDB Local checks that a request is signed, not the signature. */
async function dynamoDbCall(port: number, operation: string, body: unknown, timeoutMs = 30_000): Promise<unknown> {
  const res = await fetch(`http://127.0.0.1:${port}/`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-amz-json-1.0',
      'X-Amz-Target': `DynamoDB_20120810.${operation}`,
      Authorization: 'AWS4-HMAC-SHA256 Credential=local/20200101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0',
    },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`DynamoDB Local answered ${operation} with ${res.status}: ${text}`);
  return JSON.parse(text);
}

class PortTakenError extends Error {}
/** Java ended before it answered (a crash, a bad flag, an archive it could not map). */
class JavaExitedError extends Error {}

/**
 * How long a JVM that neither listens nor exits is given: a start takes about 5 s of its CPU. A
 * wall-clock limit alone measured the machine, not Java: eight JVMs starting at once beside the
 * type checks (a test run's first seconds) took over 30 s each on two loaded cores. So the limit
 * is Java's own CPU (read from /proc), with a wall-clock bound only for a JVM that gets none.
 */
const START_CPU_S = 30;
const START_WALL_S = 180;
function startTimedOut(pid: number, started: number): boolean {
  const wall = (Date.now() - started) / 1000;
  if (wall > START_WALL_S) return true;
  // No /proc (not Linux): the wall clock it is.
  return (javaCpuSeconds(pid) ?? wall) > START_CPU_S;
}
/** A process's CPU seconds (utime and stime, in clock ticks of 100 a second), from /proc. */
function javaCpuSeconds(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

async function startOn(
  port: number,
  dbPath: string | undefined,
  jit: Jit,
  launch: JavaLaunch,
  extraFlags: string[] = [],
): Promise<DynamoDbLocal & { stopAndWait(graceCpuS: number): Promise<boolean> }> {
  const dir = emulatorDir();
  const args = [
    `-Djava.library.path=${join(dir, 'DynamoDBLocal_lib')}`,
    '-Xms64m',
    ...jvmFlags(jit),
    ...(launch.archive ? [`-XX:SharedArchiveFile=${launch.archive}`] : []),
    ...extraFlags,
    ...launch.target,
    '-port',
    String(port),
    // One database for every access key and region, so credentials never matter locally.
    '-sharedDb',
    // No telemetry from a local tool (and no outbound connection attempts on closed networks).
    '-disableTelemetry',
    ...(dbPath ? ['-dbPath', dbPath] : ['-inMemory']),
  ];
  // DynamoDB Local writes a metadata file into its working directory: keep it out of the repo.
  const java: ChildProcess = spawn('java', args, { stdio: ['ignore', 'ignore', 'pipe'], cwd: dbPath ?? tmpdir() });
  // Our exit, a crash or a stop before Java is ready included, must not leave Java behind.
  process.once('exit', () => {
    if (java.exitCode === null && java.signalCode === null) java.kill('SIGKILL');
  });
  let stderr = '';
  java.stderr?.on('data', (d) => (stderr = (stderr + d).slice(-4000)));
  const exited = new Promise<number | null>((resolve) => java.once('exit', (code) => resolve(code)));
  const endedBySignal = new Promise<boolean>((resolve) => java.once('exit', (_code, signal) => resolve(signal !== null)));
  const spawnError = new Promise<Error>((resolve) => java.once('error', resolve));

  const started = Date.now();
  for (;;) {
    const failed = await Promise.race([
      exited.then((code) => new JavaExitedError(`DynamoDB Local exited with code ${code}: ${stderr.trim()}`)),
      spawnError.then((e) => new Error(`Could not start java (is Java 17 installed?): ${e.message}`)),
      new Promise<undefined>((r) => setTimeout(() => r(undefined), 100)),
    ]);
    if (failed) throw failed;
    // Its main thread dies on a taken port, but the JVM lives on without listening.
    if (/Failed to bind|BindException/.test(stderr)) {
      java.kill('SIGKILL');
      throw new PortTakenError(`port ${port} is taken: DynamoDB Local could not listen on it`);
    }
    // Connectable is not enough: it must be DynamoDB Local answering, and our Java holding the
    // port (another DynamoDB Local may have taken it first).
    if (await answersAsDynamoDb(port)) {
      if (listensOn(java.pid!, port) !== false) break;
      java.kill('SIGKILL');
      throw new PortTakenError(`port ${port} is taken by another DynamoDB Local`);
    }
    if (startTimedOut(java.pid!, started)) {
      java.kill('SIGKILL');
      throw new Error(`DynamoDB Local did not listen on port ${port}: ${START_CPU_S} s of its CPU, or ${START_WALL_S} s`);
    }
  }

  let stopping: Promise<void> | undefined;
  const stopWithin = (grace: { ms: number } | { cpuS: number }) =>
    (stopping ??= (async () => {
      if (java.exitCode !== null || java.signalCode !== null) return;
      java.kill('SIGTERM');
      // Writing an archive at exit takes seconds of Java's CPU, which a loaded machine may
      // spread over minutes: that wait is bounded by Java's CPU, as a start is.
      const since = Date.now();
      const cpuAtStop = javaCpuSeconds(java.pid!);
      const timer =
        'ms' in grace
          ? setTimeout(() => java.kill('SIGKILL'), grace.ms)
          : setInterval(() => {
              const cpu = javaCpuSeconds(java.pid!);
              const spent = cpu === undefined || cpuAtStop === undefined ? (Date.now() - since) / 1000 : cpu - cpuAtStop;
              if (spent > grace.cpuS || Date.now() - since > START_WALL_S * 1000) java.kill('SIGKILL');
            }, 250);
      await exited;
      clearTimeout(timer);
    })());
  return {
    endpoint: `http://127.0.0.1:${port}`,
    port,
    pid: java.pid!,
    stop: () => stopWithin({ ms: 5_000 }),
    // Whether Java ended on its own after the SIGTERM (not killed): what an archive written at exit needs.
    stopAndWait: async (graceCpuS) => {
      await stopWithin({ cpuS: graceCpuS });
      return !(await endedBySignal);
    },
  };
}

/** True when `pid` is a live DynamoDB Local Java process (used to clear a stale one). */
export function isDynamoDbLocalProcess(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('DynamoDBLocal.jar');
  } catch {
    return false; // cannot tell (no /proc): never kill what might be someone else's process
  }
}
