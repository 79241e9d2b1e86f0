/**
 * The configuration of the Lambda code: every environment variable that lib/ and functions/
 * read, read here and only here, each time it is asked for (parsed again only when it changed).
 *
 * A setting is read when used, not when this module loads: functions are given different
 * variables (only the queue functions get the queue URLs, only the token functions the usage
 * plan), and no function may fail for a variable it is never given. Modules that need a required
 * setting check it when they load (`requireSettings`: lib/store/client.ts, lib/webhooks/queue.ts),
 * so a missing one still stops exactly the functions that need it, at cold start, with a clear
 * message; they read it again where they use it, so no module keeps a setting of its own.
 */
import { optional, positiveNumber, raw, required } from './env';

export interface Config {
  /** TABLE_NAME, required by every function that touches the table. */
  readonly tableName: string;
  /** DYNAMODB_ENDPOINT: set only for DynamoDB Local. */
  readonly dynamodbEndpoint: string | undefined;
  readonly region: string;
  /** ORIGIN_VERIFY: the value CloudFront sends in X-Origin-Verify; unset when nothing fronts the API. */
  readonly originVerify: string | undefined;
  /** USAGE_PLAN_NAME: the per-token rate-limit plan; only the token functions are given it. */
  readonly usagePlanName: string | undefined;
  /** WEBHOOK_QUEUE_URL and WEBHOOK_DLQ_URL: required by the functions that queue deliveries. */
  readonly webhookQueueUrl: string;
  readonly webhookDlqUrl: string;
  /** IMPORT_QUEUE_URL: required by the functions that queue import work (the import POST and its worker). */
  readonly importQueueUrl: string;
  /** INVITATION_QUEUE_URL: where the fan-out queues interview invitations; unset where no mail is sent (a deploy without a mail domain). */
  readonly invitationQueueUrl: string | undefined;
  /** SQS_ENDPOINT: set only for the local queue of `npm start` and the tests. */
  readonly sqsEndpoint: string | undefined;
  /** WEBHOOK_RETRY_SCHEDULE, unparsed (lib/webhooks/config.ts checks it); unset in the stack. */
  readonly webhookRetrySchedule: string | undefined;
  /** WEBHOOK_TIMEOUT_MS: one delivery attempt's limit, at most the default 15 s. */
  readonly webhookTimeoutMs: number;
  /** WEBHOOK_DISABLE_AFTER_MS: an endpoint failing continuously this long is disabled (5 days). */
  readonly webhookDisableAfterMs: number;
  /** WEBHOOK_ALLOW_LOOPBACK=true: only `npm start` sets it (local receivers on 127.0.0.1). */
  readonly webhookAllowLoopback: boolean;
  /** LAMBDA_TASK_ROOT is set: this runs in Lambda (the X-Ray facade segment exists). */
  readonly inLambda: boolean;
  /**
   * TP_IMPORT_HOLD_AT_ROW: a local test hook (set only by test/e2e/restart.test.ts on
   * `npm start`, never by the stack): an import run stops for good once it has written the rows up
   * to this row, before counting them, as a process killed at that moment would.
   */
  readonly importHoldAtRow: number | undefined;
  /** FILES_BUCKET: the files bucket; required by the functions that read or write files (lib/files/storage.ts). */
  readonly filesBucket: string;
  /** S3_ENDPOINT: set only for the local S3 (s3rver) of `npm start` and the tests; path-style addressing then. */
  readonly s3Endpoint: string | undefined;
  /**
   * FILES_MALWARE_SCAN=true: the stack's `-c malwareProtection=true`. The bucket then refuses to
   * serve an attached file until GuardDuty has tagged it clean; the file routes say so.
   */
  readonly filesMalwareScan: boolean;
  /** MAIL_FROM: the sender address (of a verified SES identity); required by the functions that send email (lib/email). */
  readonly mailFrom: string;
  /** SES_CONFIGURATION_SET: the SES configuration set every message is sent with; unset locally. */
  readonly sesConfigurationSet: string | undefined;
  /** SES_ENDPOINT: set only for the local SES (aws-ses-v2-local) of `npm start` and the tests. */
  readonly sesEndpoint: string | undefined;
  /**
   * FORM_TOKEN_SECRET: the key of the application form's tokens (lib/domain/form-token.ts); a
   * Secrets Manager value deployed, random per `npm start`. Required by the public job reads and the application.
   */
  readonly formTokenSecret: string;
  /** RATE_LIMITS=off: `npm start`'s switch for every limit, here the application limits; never set by the stack. */
  readonly rateLimitsOff: boolean;
  /** npm_package_name/version, which X-Ray's SDK records; set only under `npm run`. */
  readonly npmPackageName: string | undefined;
  readonly npmPackageVersion: string | undefined;
}

type Parse<T> = (value: string | undefined, name: string) => T;

const readers: { [K in keyof Config]: readonly [variable: string, parse: Parse<Config[K]>] } = {
  tableName: ['TABLE_NAME', required],
  dynamodbEndpoint: ['DYNAMODB_ENDPOINT', optional],
  region: ['AWS_REGION', (v) => v ?? 'us-east-1'],
  originVerify: ['ORIGIN_VERIFY', optional],
  usagePlanName: ['USAGE_PLAN_NAME', optional],
  webhookQueueUrl: ['WEBHOOK_QUEUE_URL', required],
  webhookDlqUrl: ['WEBHOOK_DLQ_URL', required],
  importQueueUrl: ['IMPORT_QUEUE_URL', required],
  invitationQueueUrl: ['INVITATION_QUEUE_URL', optional],
  sqsEndpoint: ['SQS_ENDPOINT', optional],
  webhookRetrySchedule: ['WEBHOOK_RETRY_SCHEDULE', optional],
  webhookTimeoutMs: ['WEBHOOK_TIMEOUT_MS', positiveNumber(15_000, 15_000)],
  webhookDisableAfterMs: ['WEBHOOK_DISABLE_AFTER_MS', positiveNumber(5 * 86_400_000)],
  webhookAllowLoopback: ['WEBHOOK_ALLOW_LOOPBACK', (v) => v === 'true'],
  inLambda: ['LAMBDA_TASK_ROOT', (v) => v !== undefined],
  importHoldAtRow: ['TP_IMPORT_HOLD_AT_ROW', (v) => Number(v) || undefined],
  filesBucket: ['FILES_BUCKET', required],
  s3Endpoint: ['S3_ENDPOINT', optional],
  filesMalwareScan: ['FILES_MALWARE_SCAN', (v) => v === 'true'],
  mailFrom: ['MAIL_FROM', required],
  sesConfigurationSet: ['SES_CONFIGURATION_SET', optional],
  sesEndpoint: ['SES_ENDPOINT', optional],
  formTokenSecret: ['FORM_TOKEN_SECRET', required],
  rateLimitsOff: ['RATE_LIMITS', (v) => v === 'off'],
  npmPackageName: ['npm_package_name', optional],
  npmPackageVersion: ['npm_package_version', optional],
};

/**
 * Each property reads its variable on every access and parses it only when the raw value differs
 * from the last one parsed (a failed parse is not kept): deployed, the environment never changes,
 * so a value is parsed once per cold start; in the tests, a file that sets a variable is read
 * with it even where the module that reads it was loaded by an earlier file of the same worker.
 */
function readEach<T extends object>(read: { [K in keyof T]: readonly [string, Parse<T[K]>] }): T {
  const settings = {} as T;
  for (const key of Object.keys(read) as (keyof T)[]) {
    const [name, parse] = read[key];
    let last: { value: string | undefined; parsed: T[keyof T] } | undefined;
    Object.defineProperty(settings, key, {
      enumerable: true,
      get: () => {
        const value = raw(name);
        if (last === undefined || last.value !== value) last = { value, parsed: parse(value, name) };
        return last.parsed;
      },
    });
  }
  return Object.freeze(settings);
}

export const config: Config = readEach(readers);

/**
 * Reads each setting once, as the calling module loads: a function given no value for a required
 * one stops at its cold start, naming the variable, rather than at its first request.
 */
export function requireSettings(...keys: (keyof Config)[]): void {
  for (const key of keys) void config[key];
}

/**
 * The Powertools service name: the `service` key of every log line and the `service` dimension of
 * every EMF metric. The stack sets POWERTOOLS_SERVICE_NAME per stage (`talent-pipeline-<stage>`,
 * infra/stages.ts), so that a dev and a prod stack in one account never add to each other's
 * metrics. It is passed to the constructors explicitly only because Powertools' own fallback,
 * `service_undefined`, would name the local runtime's and the tests' lines.
 */
export const SERVICE_NAME = raw('POWERTOOLS_SERVICE_NAME') ?? 'talent-pipeline';
