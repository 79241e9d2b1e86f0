/**
 * Approvals: the offers waiting for the signed-in member's decision, each with its terms, its
 * chain and the decision form (approve or reject, with a comment). How they are found, and what
 * it costs, is in approvals-scan.ts.
 */
import { useState } from 'preact/hooks';
import { Chain, DecisionForm, Terms } from '../offer-parts';
import { fetchChain, fetchMemberEmails } from '../offer-data';
import { scanAwaiting } from '../approvals-scan';
import { Live } from '../recruiting';
import { Link } from '../router';
import { useSession } from '../session';
import { Empty, Loaded, Notice, PageTitle, useLoad } from '../ui';

export function Approvals() {
  const me = useSession().session.user.id;
  const [load, reload] = useLoad(async () => {
    const [scan, chain, emails] = await Promise.all([scanAwaiting(me), fetchChain(), fetchMemberEmails()]);
    return { scan, chain, emails };
  }, [me]);
  const [live, setLive] = useState<string>();
  return (
    <>
      <PageTitle title="Approvals">Approvals</PageTitle>
      <p class="lead">The offers waiting for your decision, at the step of the approval chain where you approve.</p>
      <Live message={live} kind="success" />
      <Loaded load={load} what="the offers waiting for you" retry={reload}>
        {({ scan, chain, emails }) =>
          !scan.approver ? (
            <Notice>You approve no step of the workspace's offer approval chain, so no offer waits for you.</Notice>
          ) : scan.awaiting.length === 0 ? (
            <Empty>No offer waits for your decision.</Empty>
          ) : (
            <ul class="approvals">
              {scan.awaiting.map(({ offer: o, candidate: c }) => (
                <li key={o.id} class="card">
                  <h2>
                    <Link href={`/candidates/${c.id}`}>{c.name || 'Erased candidate'}</Link>
                    {c.req_title && <span class="hint"> · {c.req_title}</span>}
                  </h2>
                  <p class="hint">Offer, version {o.version}</p>
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
          )
        }
      </Loaded>
    </>
  );
}
