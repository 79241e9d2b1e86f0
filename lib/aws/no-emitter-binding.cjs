/**
 * What the Lambda bundles use in place of `emitter-listener` (an esbuild alias in
 * infra/constructs/table-function.ts LAMBDA_ALIASES), with `shimmer` under it: ~3.3 KB of each
 * bundle. cls-hooked, the X-Ray SDK's context, requires it only for Namespace#bindEmitter, which
 * binds an EventEmitter's listeners to the current trace context. Nothing in the X-Ray SDK modules
 * we bundle (lib/aws/xray-sdk-core.ts) calls bindEmitter; only the SDK's Express and Restify
 * middleware do, and they are not installed. CommonJS, like the module it replaces: cls-hooked
 * `require`s it as a function, and a call would fail here by name.
 */
module.exports = function wrapEmitter() {
  throw new Error('emitter-listener is not bundled (lib/aws/no-emitter-binding.cjs): bindEmitter is not supported');
};
