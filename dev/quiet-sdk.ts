// Local tools run on the machine's Node 20; Lambda runs Node 24. The SDK's notice that its
// 2027 releases need Node 22 would print on every command, so local tools turn it off.
// The lockfile pins the SDK, and docs/local-development.md ("Requirements") says which Node the
// functions run on.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
// Deployed, every EMF metric line is read by CloudWatch; in a terminal they bury the access log
// and the bench's figures (one per request). `POWERTOOLS_METRICS_DISABLED=false npm start` shows them.
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
