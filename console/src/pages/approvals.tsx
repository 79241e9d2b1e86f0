/**
 * Approvals: the offers waiting for the signed-in member's decision (GET /api/offers/approvals,
 * newest first, a page at a time), each with its terms, its chain and the decision form (approve or
 * reject, with a comment). The list answers only offers the member may read; each offer shown is
 * read in full for its chain's decisions.
 */
import { useState } from 'preact/hooks';
import { Chain, DecisionForm, Terms } from '../offer-parts';
import { fetchAwaiting, fetchChain, fetchMemberEmails, fetchOffer, type AwaitingOffer } from '../offer-data';
import { Live } from '../recruiting';
import { Link } from '../router';
import { useSession } from '../session';
import { Empty, Loaded, PageTitle, useLoad } from '../ui';

async function detailed(entries: AwaitingOffer[]) {
  return Promise.all(entries.map(async (e) => ({ ...e, detail: await fetchOffer(e.offer.id) })));
}

export function Approvals() {
  const me = useSession().session.user.id;
  const [more, setMore] = useState<{ cursor: string | null; entries: Awaited<ReturnType<typeof detailed>> }>();
  const [load, reload] = useLoad(async () => {
    setMore(undefined);
    const [page, chain, emails] = await Promise.all([fetchAwaiting(), fetchChain(), fetchMemberEmails()]);
    return { entries: await detailed(page.data), count: page.count, cursor: page.next_cursor, chain, emails };
  }, [me]);
  const [live, setLive] = useState<string>();
  const [busy, setBusy] = useState(false);
  return (
    <>
      <PageTitle title="Approvals">Approvals</PageTitle>
      <p class="lead">The offers waiting for your decision, at the step of the approval chain where you approve.</p>
      <Live message={live} kind="success" />
      <Loaded load={load} what="the offers waiting for you" retry={reload}>
        {({ entries, count, cursor, chain, emails }) => {
          const shown = [...entries, ...(more?.entries ?? [])];
          const next = more ? more.cursor : cursor;
          return shown.length === 0 ? (
            <Empty>No offer waits for your decision.</Empty>
          ) : (
            <>
              <p class="hint">
                {count} {count === 1 ? 'offer waits' : 'offers wait'} for your decision.
              </p>
              <ul class="approvals">
                {shown.map(({ detail: o, candidate: c, requisition: r, step }) => (
                  <li key={o.id} class="card">
                    <h2>
                      <Link href={`/candidates/${c.id}`}>{c.name || 'Erased candidate'}</Link>
                      {r?.title && <span class="hint"> · {r.title}</span>}
                    </h2>
                    <p class="hint">
                      Offer, version {o.version}; waiting at step {step + 1}
                    </p>
                    <Terms o={o} />
                    <Chain chain={chain} o={o} emails={emails} />
                    <DecisionForm
                      offerId={o.id}
                      label={`the offer to ${c.name || 'an erased candidate'}`}
                      onDecided={async (msg) => {
                        setLive(msg);
                        await reload();
                      }}
                    />
                  </li>
                ))}
              </ul>
              {next && (
                <button
                  type="button"
                  disabled={busy}
                  onClick={async () => {
                    setBusy(true);
                    try {
                      const page = await fetchAwaiting({ cursor: next });
                      setMore({ cursor: page.next_cursor, entries: [...(more?.entries ?? []), ...(await detailed(page.data))] });
                    } finally {
                      setBusy(false);
                    }
                  }}
                >
                  Show more
                </button>
              )}
            </>
          );
        }}
      </Loaded>
    </>
  );
}
