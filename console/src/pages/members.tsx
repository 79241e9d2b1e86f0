import { PageTitle } from '../ui';

export function Members(_: { id?: string }) {
  return <PageTitle title="Members">Members</PageTitle>;
}
