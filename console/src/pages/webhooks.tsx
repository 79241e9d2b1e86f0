import { PageTitle } from '../ui';

export function Webhooks(_: { id?: string }) {
  return <PageTitle title="Webhooks">Webhooks</PageTitle>;
}
