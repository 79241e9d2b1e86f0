import { PageTitle } from '../ui';

export function Docs(_: { id?: string }) {
  return <PageTitle title="Docs">Docs</PageTitle>;
}
