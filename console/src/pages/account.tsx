import { PageTitle } from '../ui';

export function Account(_: { id?: string }) {
  return <PageTitle title="Account">Account</PageTitle>;
}
