/** A readable API reference rendered from the live /api/v1/openapi.json: routes, scopes, parameters. */
import { useEffect, useMemo, useState } from 'preact/hooks';
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
        {(doc) => <Reference doc={doc} />}
      </Loaded>
    </>
  );
}

type Entry = { path: string; method: string; op: Operation; id: string };
type Group = { key: string; resource: string; entries: Entry[] };

/** The resource a route belongs to: its first segment after /api/v1/ or /api/ (`candidates`, `careers`). */
const resourceOf = (path: string) => path.replace(/^\/api\/(v1\/)?/, '/').split('/')[1] || path;

function groupsOf(entries: Entry[], api: string): Group[] {
  const byResource = new Map<string, Entry[]>();
  for (const e of entries) {
    const r = resourceOf(e.path);
    byResource.set(r, [...(byResource.get(r) ?? []), e]);
  }
  return [...byResource].map(([resource, list]) => ({ key: `${api}-${resource}`, resource, entries: list }));
}

/**
 * The route list, then each resource's operations in a group of their own, rendered only once
 * opened: every operation at once was thousands of table rows, slow to lay out and to read
 * through. A route's link (or a URL with its anchor) opens its group and moves focus to it.
 */
function Reference({ doc }: { doc: Doc }) {
  const { entries, groups, groupOf } = useMemo(() => {
    const entries = Object.entries(doc.paths ?? {}).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({ path, method, op, id: op.operationId ?? `${method}-${path}` })),
    );
    const groups = {
      integration: groupsOf(
        entries.filter((e) => e.path.startsWith('/api/v1/')),
        'v1',
      ),
      workspace: groupsOf(
        entries.filter((e) => !e.path.startsWith('/api/v1/')),
        'console',
      ),
    };
    const groupOf = new Map([...groups.integration, ...groups.workspace].flatMap((g) => g.entries.map((e) => [e.id, g.key] as const)));
    return { entries, groups, groupOf };
  }, [doc]);
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const [target, setTarget] = useState<string>();
  const toggle = (key: string, isOpen: boolean) =>
    setOpen((o) => {
      if (o.has(key) === isOpen) return o;
      const next = new Set(o);
      if (isOpen) next.add(key);
      else next.delete(key);
      return next;
    });
  const show = (id: string) => {
    const key = groupOf.get(id);
    if (!key) return;
    toggle(key, true);
    setTarget(id);
  };
  useEffect(() => {
    const fromHash = () => show(decodeURIComponent(location.hash.slice(1)));
    fromHash();
    addEventListener('hashchange', fromHash);
    return () => removeEventListener('hashchange', fromHash);
  }, [groupOf]);
  useEffect(() => {
    if (!target) return;
    const heading = document.getElementById(`${target}-h`);
    if (!heading) return;
    heading.focus();
    setTarget(undefined);
  }, [target, open]);

  if (entries.length === 0) return <Empty>The API document lists no routes.</Empty>;
  const section = (list: Group[]) =>
    list.map((g) => (
      <details
        key={g.key}
        id={`group-${g.key}`}
        class="docs-group card"
        open={open.has(g.key)}
        onToggle={(e) => toggle(g.key, (e.currentTarget as HTMLDetailsElement).open)}
      >
        <summary>
          <code>{g.resource}</code>: {g.entries.length} {g.entries.length === 1 ? 'operation' : 'operations'}
        </summary>
        {open.has(g.key) && g.entries.map((e) => <Op key={e.id} {...e} />)}
      </details>
    ));
  return (
    <>
      <nav aria-label="Routes" class="card">
        <h2>Routes</h2>
        <ul>
          {entries.map(({ path, method, op, id }) => (
            <li key={id}>
              {/* Also on a second click of the same link, which changes no hash. */}
              <a href={`#${id}`} onClick={() => show(id)}>
                <span class="method">{method.toUpperCase()}</span>
                <code>{path}</code>
              </a>{' '}
              {op.summary}
            </li>
          ))}
        </ul>
      </nav>
      <h2>Integration API (Bearer tokens)</h2>
      {section(groups.integration)}
      <h2>Workspace API (used by this console)</h2>
      {section(groups.workspace)}
    </>
  );
}

function Op({ path, method, op, id }: Entry) {
  const body = op.requestBody?.content?.['application/json']?.schema;
  return (
    <section class="docs-op" id={id} aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`} tabIndex={-1}>
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
