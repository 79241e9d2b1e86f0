import { createImport } from '../lib/domain/imports';
import { apiHandler, data, header, Reply } from '../lib/http';
import * as importsApi from '../lib/api/imports';
import * as idempotency from '../lib/idempotency';
import { formatOf } from '../lib/imports/parse';

export const handler = apiHandler(
  importsApi.createImport,
  async ({ principal, query, event }) => {
    const format = formatOf(header(event, 'content-type'));
    const text = event.isBase64Encoded ? Buffer.from(event.body ?? '', 'base64').toString('utf8') : (event.body ?? '');
    const result = await createImport(principal, { text, format, dryRun: query.dry_run === 'true' });
    if (result.kind === 'dry_run') return new Reply(data(result.result), { status: 200 });
    return new Reply(data(result.job), { status: result.fresh ? 202 : 200 });
  },
  { idempotency },
);
