/** The Activity section of a person's page: the feed, newest first, each kind in words. */
import { api, unwrap } from './api/client';
import { stageLabel } from './labels';
import { actorText } from './recruiting';
import { Empty, Loaded, useLoad, useOlderPages, When } from './ui';

const fetchActivity = (personId: string, cursor?: string) =>
  unwrap(api.GET('/api/people/{id}/activity', { params: { path: { id: personId }, query: { limit: 20, ...(cursor && { cursor }) } } }));
type Item = Awaited<ReturnType<typeof fetchActivity>>['data'][number] & Record<string, unknown>;

const stage = (v: unknown) => (typeof v === 'string' ? stageLabel(v as never) : '—');

/** What happened, in a sentence; a kind this console does not know yet is shown by its name. */
function describe(i: Item): string {
  switch (i.kind) {
    case 'candidate.created':
      return `Added in ${stage(i.stage)}`;
    case 'candidate.imported':
      return `Imported in ${stage(i.stage)}`;
    case 'candidate.stage_changed':
      return `Moved from ${stage(i.from)} to ${stage(i.to)}${typeof i.rejection_reason_label === 'string' ? ` (${i.rejection_reason_label})` : ''}`;
    case 'candidate.requisition_changed':
      return i.to_req_id ? 'Moved to another requisition' : 'Taken off its requisition';
    case 'candidate.edited':
      return `Edited ${Array.isArray(i.fields) ? i.fields.join(', ') : 'the profile'}`;
    case 'note.created':
      return `Wrote a ${i.visibility === 'team' ? '' : `${String(i.visibility)} `}note`;
    case 'note.edited':
      return 'Edited a note';
    case 'note.deleted':
      return 'Deleted a note';
    case 'person.merged':
      return 'Merged with another person';
    default:
      return i.kind;
  }
}

export function Activity({ personId }: { personId: string }) {
  const [load, reload, pending] = useLoad(() => fetchActivity(personId), [personId]);
  const [older, more] = useOlderPages(load, pending, (cursor) => fetchActivity(personId, cursor), 'older activity');
  return (
    <section class="card" aria-labelledby="activity-h">
      <h2 id="activity-h">Activity</h2>
      <Loaded load={load} what="the activity" retry={reload}>
        {(page) =>
          page.data.length + older.length === 0 ? (
            <Empty>No activity yet. Changes show here a moment after they are made.</Empty>
          ) : (
            <ol class="activity">
              {([...page.data, ...older] as Item[]).map((i) => (
                <li key={i.id}>
                  <When iso={i.at} /> · {describe(i)} · <span class="hint">{actorText(i.actor)}</span>
                </li>
              ))}
            </ol>
          )
        }
      </Loaded>
      {more}
    </section>
  );
}
