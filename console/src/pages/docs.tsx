/** A readable API reference rendered from the live /api/v1/openapi.json: routes, scopes, parameters. */
import { api, unwrap } from '../api/client';
import { Link } from '../router';
import { Empty, Loaded, PageTitle, Scroll, useLoad } from '../ui';

type Schema = {
  type?: string | string[];
  enum?: unknown[];
  format?: string;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  anyOf?: Schema[];
  default?: unknown;
  description?: string;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
};
type Param = { name: string; in: string; required?: boolean; schema?: Schema };
type Operation = {
  operationId?: string;
  summary?: string;
  description?: string;
  security?: Record<string, string[]>[];
  parameters?: Param[];
  requestBody?: { content?: { 'application/json'?: { schema?: Schema } } };
  responses?: Record<string, { description?: string }>;
};
type Doc = { info?: { title?: string; description?: string; version?: string }; paths?: Record<string, Record<string, Operation>> };

const fetchDoc = async () => (await unwrap(api.GET('/api/v1/openapi.json'))) as unknown as Doc;

function typeOf(s: Schema | undefined): string {
  if (!s) return 'any';
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  if (s.anyOf) return s.anyOf.map(typeOf).join(' | ');
  if (s.type === 'array') return `${typeOf(s.items)}[]`;
  const t = Array.isArray(s.type) ? s.type.join(' | ') : (s.type ?? 'object');
  return s.format ? `${t} (${s.format})` : t;
}

function constraints(s: Schema | undefined) {
  if (!s) return '';
  const parts: string[] = [];
  if (s.minimum !== undefined || s.maximum !== undefined) parts.push(`${s.minimum ?? '…'}–${s.maximum ?? '…'}`);
  if (s.maxLength !== undefined) parts.push(`max ${s.maxLength} chars`);
  if (s.default !== undefined) parts.push(`default ${JSON.stringify(s.default)}`);
  return parts.join(', ');
}

function auth(op: Operation) {
  const sec = op.security ?? [];
  if (sec.length === 0) return <span class="badge">public</span>;
  if (sec.some((s) => 'bearerAuth' in s)) {
    const scopes = sec.flatMap((s) => s.bearerAuth ?? []);
    return (
      <span>
        <span class="badge">Bearer token</span> scope{' '}
        {scopes.length
          ? scopes.map((s) => (
              <code class="chip" key={s}>
                {s}
              </code>
            ))
          : 'any'}{' '}
        (or <code>*</code>)
      </span>
    );
  }
  return <span class="badge">session cookie (console)</span>;
}

export function Docs() {
  const [load, reload] = useLoad(fetchDoc);
  return (
    <>
      <PageTitle title="API reference">API reference</PageTitle>
      <p class="lead">
        Rendered from <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>. Bearer routes take a token from{' '}
        <Link href="/settings/tokens">API tokens</Link>; errors are always <code>{'{ "error": "…" }'}</code>.
      </p>
      <Loaded load={load} what="the API document" retry={reload}>
        {(doc) => {
          const ops = Object.entries(doc.paths ?? {}).flatMap(([path, methods]) =>
            Object.entries(methods).map(([method, op]) => ({ path, method, op })),
          );
          if (ops.length === 0) return <Empty>The API document lists no routes.</Empty>;
          const publicOps = ops.filter((o) => o.path.startsWith('/api/v1/'));
          const consoleOps = ops.filter((o) => !o.path.startsWith('/api/v1/'));
          return (
            <>
              <nav aria-label="Routes" class="card">
                <h2>Routes</h2>
                <ul>
                  {ops.map(({ path, method, op }) => (
                    <li key={`${method} ${path}`}>
                      <a href={`#${op.operationId ?? `${method}-${path}`}`}>
                        <span class="method">{method.toUpperCase()}</span>
                        <code>{path}</code>
                      </a>{' '}
                      {op.summary}
                    </li>
                  ))}
                </ul>
              </nav>
              <h2>Integration API (Bearer tokens)</h2>
              {publicOps.map((o) => (
                <Op key={`${o.method} ${o.path}`} {...o} />
              ))}
              <h2>Workspace API (used by this console)</h2>
              {consoleOps.map((o) => (
                <Op key={`${o.method} ${o.path}`} {...o} />
              ))}
            </>
          );
        }}
      </Loaded>
    </>
  );
}

function Op({ path, method, op }: { path: string; method: string; op: Operation }) {
  const body = op.requestBody?.content?.['application/json']?.schema;
  const id = op.operationId ?? `${method}-${path}`;
  return (
    <section class="docs-op card" id={id} aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>
        <span class="method">{method.toUpperCase()}</span>
        <code>{path}</code>
      </h3>
      <p>{op.summary}</p>
      <p>Auth: {auth(op)}</p>
      {op.parameters && op.parameters.length > 0 && (
        <Scroll label={`Parameters of ${method.toUpperCase()} ${path}`}>
          <table>
            <caption>Parameters</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">In</th>
                <th scope="col">Type</th>
                <th scope="col">Required</th>
                <th scope="col">Notes</th>
              </tr>
            </thead>
            <tbody>
              {op.parameters.map((p) => (
                <tr key={`${p.in}-${p.name}`}>
                  <td>
                    <code>{p.name}</code>
                  </td>
                  <td>{p.in}</td>
                  <td>{typeOf(p.schema)}</td>
                  <td>{p.required ? 'yes' : 'no'}</td>
                  <td>{constraints(p.schema)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Scroll>
      )}
      {body?.properties && (
        <Scroll label={`JSON body of ${method.toUpperCase()} ${path}`}>
          <table>
            <caption>JSON body</caption>
            <thead>
              <tr>
                <th scope="col">Field</th>
                <th scope="col">Type</th>
                <th scope="col">Required</th>
                <th scope="col">Notes</th>
              </tr>
            </thead>
            <tbody>
              {Object.entries(body.properties).map(([name, s]) => (
                <tr key={name}>
                  <td>
                    <code>{name}</code>
                  </td>
                  <td>{typeOf(s)}</td>
                  <td>{body.required?.includes(name) ? 'yes' : 'no'}</td>
                  <td>{constraints(s)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Scroll>
      )}
      <details>
        <summary>Responses</summary>
        <ul>
          {Object.entries(op.responses ?? {}).map(([status, r]) => (
            <li key={status}>
              <strong>{status}</strong> {r.description}
            </li>
          ))}
        </ul>
      </details>
    </section>
  );
}
