/** Your mentions: unread first; open the candidate it is about, or mark it read. */
import { useState } from 'preact/hooks';
import { api, errorText, unwrap } from '../api/client';
import { Link } from '../router';
import { Empty, ErrorBox, Loaded, PageTitle, useLoad, useOlderPages, When } from '../ui';

export const fetchMentions = (cursor?: string) =>
  unwrap(api.GET('/api/mentions', { params: { query: { limit: 50, ...(cursor && { cursor }) } } }));

export function Mentions({ onRead }: { onRead?: () => void }) {
  const [load, reload, pending] = useLoad(() => fetchMentions(), []);
  const [older, more] = useOlderPages(load, pending, (cursor) => fetchMentions(cursor), 'older mentions');
  const [error, setError] = useState<string>();
  const read = async (id: string) => {
    setError(undefined);
    try {
      await unwrap(api.POST('/api/mentions/{id}/read', { params: { path: { id } } }));
      onRead?.();
      await reload();
    } catch (err) {
      setError(errorText(err));
    }
  };
  return (
    <>
      <PageTitle title="Mentions">Mentions</PageTitle>
      {error && <ErrorBox message={error} />}
      <Loaded load={load} what="your mentions" retry={reload}>
        {(page) =>
          page.data.length + older.length === 0 ? (
            <Empty>Nobody has mentioned you in a note yet.</Empty>
          ) : (
            <>
              <p class="lead">{page.unread === 0 ? 'All read.' : `${page.unread} unread.`}</p>
              <ul class="mentions-list">
                {[...page.data, ...older].map((m) => (
                  <li key={m.id} class={m.read_at ? 'read' : 'unread'}>
                    {m.read_at ? '' : <span class="badge">New</span>} {m.author.email ?? 'An API token'} mentioned you in a note ·{' '}
                    <When iso={m.at} /> {m.candidate_id && <Link href={`/candidates/${m.candidate_id}`}>Open the candidate</Link>}{' '}
                    {!m.read_at && (
                      <button type="button" onClick={() => read(m.id)}>
                        Mark read
                      </button>
                    )}
                  </li>
                ))}
              </ul>
            </>
          )
        }
      </Loaded>
      {more}
    </>
  );
}
