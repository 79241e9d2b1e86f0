import { PageTitle } from '../ui';

export function PipelineSettings(_: { id?: string }) {
  return <PageTitle title="PipelineSettings">PipelineSettings</PageTitle>;
}
