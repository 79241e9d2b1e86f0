import { issueCvUpload } from '../lib/domain/cv-uploads';
import { clientAddress } from '../lib/edge';
import { filesOrigin } from '../lib/files/cv-upload';
import { apiHandler, Reply } from '../lib/http';
import * as applicationsApi from '../lib/api/applications';
import { cvReturn, withCvFormPage } from '../lib/careers/cv-page';

/** The careers job page's CV step: always a page, under /careers/ and so with the careers CSP. */
export const handler = withCvFormPage(
  apiHandler(applicationsApi.careersCvUpload, async ({ params, body, event }) => {
    const data = await issueCvUpload(params, body, clientAddress(event), cvReturn(event, body.source));
    return new Reply({ data } as never, { status: 201 });
  }),
  filesOrigin,
  'always',
);
