/**
 * What every bundle uses in place of `@aws-sdk/middleware-endpoint-discovery` (an esbuild alias,
 * LAMBDA_ALIASES in infra/constructs/table-function.ts). The DynamoDB client resolves endpoint
 * discovery's config when it is constructed, but none of its commands adds the discovery
 * middleware (discovery is optional for DynamoDB, and off unless configured): the config's LRU
 * cache (mnemonist, obliterator) was ~8 KB of every bundle for nothing. Requests go to the
 * regional endpoint, as they do with the SDK's own module.
 */
export const NODE_ENDPOINT_DISCOVERY_CONFIG_OPTIONS = {
  environmentVariableSelector: () => undefined,
  configFileSelector: () => undefined,
  default: undefined,
};

/** As the SDK's, without the cache: discovery stays off whatever the input says. */
export const resolveEndpointDiscoveryConfig = <T extends object>(input: T) =>
  Object.assign(input, { endpointDiscoveryEnabled: () => Promise.resolve(false), isClientEndpointDiscoveryEnabled: false });
