import { PageTitle } from '../ui';

export function WebhookDetail(_: { id?: string }) {
  return <PageTitle title="WebhookDetail">WebhookDetail</PageTitle>;
}
