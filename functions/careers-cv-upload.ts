import { issueCvUpload } from '../lib/domain/cv-uploads';
import { clientAddress } from '../lib/edge';
import { filesOrigin } from '../lib/files/cv-upload';
import { apiHandler, Reply } from '../lib/http';
import * as applicationsApi from '../lib/api/applications';
import { cvReturnTo, withCvFormPage } from '../lib/careers/cv-page';

/** The careers job page's CV step: always a page, under /careers/ and so with the careers CSP. */
export const handler = withCvFormPage(
  apiHandler(applicationsApi.careersCvUpload, async ({ params, body, event }) => {
    const jobPage = cvReturnTo.get(event)!;
    const back = (id: string) => `${jobPage}?cv=${encodeURIComponent(id)}${body.source ? `&src=${body.source}` : ''}`;
    const data = await issueCvUpload(params, body, clientAddress(event), back);
    return new Reply({ data } as never, { status: 201 });
  }),
  filesOrigin,
  'always',
);
