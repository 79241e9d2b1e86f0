/**
 * What the Lambda bundles use in place of `@aws-sdk/credential-provider-node` (an esbuild alias
 * in infra/constructs/table-function.ts BUNDLING). Lambda always hands a function its role's credentials in the
 * environment, so the rest of the default chain (SSO, profiles, web identity, IMDS, and the
 * nested STS/SSO/sign-in clients they bring) is ~100 KB of bundle that never runs. Local runs
 * and tests are not bundled and keep the full chain.
 */
import { fromEnv } from '@aws-sdk/credential-provider-env';

export const defaultProvider = (init: Parameters<typeof fromEnv>[0] = {}) => fromEnv(init);
