/**
 * Where the API's methods live. The stack itself keeps every method it held before the API grew a
 * nested stack of methods (ROOT_METHODS); every other route's method, and any API resource (path
 * segment) only such methods need, goes to the nested stack `ApiMethods`. A method costs its stack
 * one resource and a new path segment one more, so the stack itself no longer grows with the route
 * table; test/unit/deploy-limits.test.ts prints the room `ApiMethods` has left (docs/deploying.md,
 * "Stacks").
 *
 * Why a frozen list rather than a rule: API Gateway refuses a second method for one resource and
 * HTTP method, and CloudFormation creates the new copy before it deletes the old one, so moving a
 * deployed method to another stack fails the update. The methods deployed in the stack stay there,
 * and a new route never moves an existing method. A route removed from the table leaves this list
 * too (test/unit/stack-split.test.ts).
 */
import { NestedStack } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import type { Construct } from 'constructs';
import type { Route } from '../../lib/routes';
import { pascal } from './table-function';

/** The stack's own methods, by path: frozen (see above). */
export const ROOT_METHODS: Readonly<Record<string, readonly Route['method'][]>> = {
  '/api/account/two-factor': ['GET', 'POST'],
  '/api/account/two-factor/confirm': ['POST'],
  '/api/account/two-factor/disable': ['POST'],
  '/api/audit': ['GET'],
  '/api/boards/{slug}/jobs': ['GET'],
  '/api/boards/{slug}/jobs/{id}': ['GET'],
  '/api/boards/{slug}/jobs/{id}/applications': ['POST'],
  '/api/candidates': ['GET', 'POST'],
  '/api/candidates/imports': ['POST'],
  '/api/candidates/imports/{id}': ['GET'],
  '/api/candidates/imports/{id}/errors': ['GET'],
  '/api/candidates/{id}': ['GET', 'PATCH'],
  '/api/candidates/{id}/erase': ['POST'],
  '/api/candidates/{id}/interviews': ['POST'],
  '/api/candidates/{id}/offers': ['GET', 'POST'],
  '/api/candidates/{id}/scorecards': ['GET'],
  '/api/interviews': ['GET'],
  '/api/interviews/{id}': ['DELETE', 'GET', 'PATCH'],
  '/api/interviews/{id}/scorecards': ['GET', 'POST'],
  '/api/members': ['GET', 'POST'],
  '/api/members/{id}': ['DELETE', 'PATCH'],
  '/api/members/{id}/deactivate': ['POST'],
  '/api/members/{id}/lockout': ['DELETE'],
  '/api/members/{id}/reactivate': ['POST'],
  '/api/members/{id}/reset-password': ['POST'],
  '/api/members/{id}/reset-two-factor': ['POST'],
  '/api/mentions': ['GET'],
  '/api/mentions/{id}/read': ['POST'],
  '/api/offers/{id}': ['GET', 'PATCH'],
  '/api/offers/{id}/approvals': ['POST'],
  '/api/offers/{id}/status': ['POST'],
  '/api/overview': ['GET'],
  '/api/people/{id}': ['GET'],
  '/api/people/{id}/activity': ['GET'],
  '/api/people/{id}/files': ['GET', 'POST'],
  '/api/people/{id}/files/{file_id}': ['DELETE', 'GET'],
  '/api/people/{id}/files/{file_id}/download': ['GET'],
  '/api/people/{id}/files/{file_id}/text': ['GET'],
  '/api/people/{id}/merge': ['POST'],
  '/api/people/{id}/notes': ['GET', 'POST'],
  '/api/people/{id}/notes/{note_id}': ['DELETE', 'GET', 'PATCH'],
  '/api/pipeline': ['POST'],
  '/api/requisitions': ['GET', 'POST'],
  '/api/requisitions/{id}': ['GET', 'PATCH'],
  '/api/requisitions/{id}/interview-plan': ['GET', 'PUT'],
  '/api/requisitions/{id}/posting': ['GET', 'PUT'],
  '/api/requisitions/{id}/status': ['POST'],
  '/api/session': ['DELETE', 'GET', 'POST'],
  '/api/session/password': ['PUT'],
  '/api/session/two-factor': ['POST'],
  '/api/settings/offer-approvals': ['GET', 'PUT'],
  '/api/settings/pipeline': ['GET', 'PUT'],
  '/api/settings/tokens': ['GET', 'PUT'],
  '/api/settings/two-factor': ['GET', 'PUT'],
  '/api/tokens': ['GET', 'POST'],
  '/api/tokens/{id}': ['DELETE'],
  '/api/tokens/{id}/rotate': ['POST'],
  '/api/uploads': ['POST'],
  '/api/uploads/limits': ['GET'],
  '/api/v1/candidates': ['GET', 'POST'],
  '/api/v1/candidates/imports': ['POST'],
  '/api/v1/candidates/imports/{id}': ['GET'],
  '/api/v1/candidates/imports/{id}/errors': ['GET'],
  '/api/v1/candidates/{id}': ['GET', 'PATCH'],
  '/api/v1/candidates/{id}/erase': ['POST'],
  '/api/v1/candidates/{id}/interviews': ['POST'],
  '/api/v1/candidates/{id}/offers': ['GET', 'POST'],
  '/api/v1/candidates/{id}/scorecards': ['GET'],
  '/api/v1/interviews': ['GET'],
  '/api/v1/interviews/{id}': ['DELETE', 'GET', 'PATCH'],
  '/api/v1/interviews/{id}/scorecards': ['GET', 'POST'],
  '/api/v1/offers/{id}': ['GET', 'PATCH'],
  '/api/v1/offers/{id}/status': ['POST'],
  '/api/v1/openapi.json': ['GET'],
  '/api/v1/people/{id}': ['GET'],
  '/api/v1/people/{id}/activity': ['GET'],
  '/api/v1/people/{id}/files': ['GET', 'POST'],
  '/api/v1/people/{id}/files/{file_id}': ['DELETE', 'GET'],
  '/api/v1/people/{id}/files/{file_id}/download': ['GET'],
  '/api/v1/people/{id}/files/{file_id}/text': ['GET'],
  '/api/v1/people/{id}/merge': ['POST'],
  '/api/v1/people/{id}/notes': ['GET', 'POST'],
  '/api/v1/people/{id}/notes/{note_id}': ['DELETE', 'GET', 'PATCH'],
  '/api/v1/pipeline': ['GET', 'POST'],
  '/api/v1/requisitions': ['GET', 'POST'],
  '/api/v1/requisitions/{id}': ['GET', 'PATCH'],
  '/api/v1/requisitions/{id}/interview-plan': ['GET', 'PUT'],
  '/api/v1/requisitions/{id}/posting': ['GET', 'PUT'],
  '/api/v1/requisitions/{id}/status': ['POST'],
  '/api/v1/uploads': ['POST'],
  '/api/v1/uploads/limits': ['GET'],
  '/api/webhooks': ['GET', 'POST'],
  '/api/webhooks/{id}': ['DELETE', 'GET', 'PATCH'],
  '/api/webhooks/{id}/deliveries': ['GET'],
  '/api/webhooks/{id}/replay': ['GET', 'POST'],
  '/api/webhooks/{id}/resend': ['POST'],
  '/api/webhooks/{id}/rotate-secret': ['POST'],
  '/api/webhooks/{id}/test': ['POST'],
};

/** Whether a route's method stays in the stack itself. */
export const inRootStack = (r: Pick<Route, 'method' | 'path'>): boolean => ROOT_METHODS[r.path]?.includes(r.method) ?? false;

/** The nested stack of API methods, by construct id. */
export const API_METHOD_STACK_ID = 'ApiMethods';

/** The nested stack (by construct id) of a route's method, or undefined for the stack itself. */
export const methodStackId = (r: Pick<Route, 'method' | 'path'>): string | undefined => (inRootStack(r) ? undefined : API_METHOD_STACK_ID);

/**
 * The nested stack of API methods. It sees the API through its ids (RestApi.fromRestApiAttributes),
 * and the stack's resources through theirs: a path segment a root method uses already exists there,
 * and only the segments after it are created here.
 */
export class ApiMethodStack extends NestedStack {
  readonly api: apigateway.IRestApi;
  private readonly imported = new Map<string, apigateway.IResource>();

  constructor(scope: Construct, id: string, api: apigateway.RestApi) {
    super(scope, id, { description: `Talent pipeline: API methods (${id})` });
    this.api = apigateway.RestApi.fromRestApiAttributes(this, 'Api', {
      restApiId: api.restApiId,
      rootResourceId: api.restApiRootResourceId,
    });
  }

  /** The resource for a path: the deepest segment the stack itself has, then segments created here. */
  resourceFor(routePath: string, root: apigateway.IResource): apigateway.IResource {
    const segments = routePath.split('/').filter(Boolean);
    let inRoot = root;
    let i = 0;
    for (; i < segments.length; i++) {
      const next = inRoot.getResource(segments[i]!);
      if (!next) break;
      inRoot = next;
    }
    let resource = this.import(inRoot);
    for (; i < segments.length; i++) resource = resource.getResource(segments[i]!) ?? resource.addResource(segments[i]!);
    return resource;
  }

  private import(resource: apigateway.IResource): apigateway.IResource {
    if (resource.path === '/') return this.api.root;
    let found = this.imported.get(resource.path);
    if (!found) {
      found = apigateway.Resource.fromResourceAttributes(this, `Resource${pascal(resource.path)}`, {
        resourceId: resource.resourceId,
        restApi: this.api,
        path: resource.path,
      });
      this.imported.set(resource.path, found);
    }
    return found;
  }
}
