/**
 * Every resource's schemas under one name, for code outside the functions (the domain's types,
 * scripts, tests). Code that a function bundles imports a schema's value from its resource's
 * module in lib/api/ instead: this barrel would bundle every resource.
 */
export * from './api/fields';
export * from './api/error-body';
export * from './api/audit';
export * from './api/candidates';
export * from './api/candidate-reads';
export * from './api/erasure';
export * from './api/imports';
export * from './api/members';
export * from './api/offers';
export * from './api/offer-approvals';
export * from './api/overview';
export * from './api/people';
export * from './api/pipeline';
export * from './api/requisitions';
export * from './api/session';
export * from './api/settings';
export * from './api/tokens';
export * from './api/webhooks';
export * from './api/two-factor';
