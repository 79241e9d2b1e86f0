import { issueCvUpload } from '../lib/domain/cv-uploads';
import { clientAddress } from '../lib/edge';
import { filesOrigin } from '../lib/files/cv-upload';
import { apiHandler, Reply } from '../lib/http';
import * as applicationsApi from '../lib/api/applications';
import { withCors } from '../lib/applications/cors';
import { cvReturn, withCvFormPage } from '../lib/careers/cv-page';

/** JSON from any site's code; the careers page's form without JavaScript gets a page that posts the file to storage. */
export const handler = withCors(
  withCvFormPage(
    apiHandler(applicationsApi.createCvUpload, async ({ params, body, event }) => {
      const data = await issueCvUpload(params, body, clientAddress(event), cvReturn(event, body.source));
      return new Reply({ data }, { status: 201 });
    }),
    filesOrigin,
  ),
);
