/**
 * The offer expiry run (lib/domain/offer-expiry.ts expireDueOffers): an EventBridge schedule
 * invokes the function every five minutes; it queries the due partition (keys by expiry time,
 * written as each offer is sent) and expires what is due. Function, role, policy, log group, rule
 * and its error alarm (infra/constructs/monitoring.ts, in the function's stack) live in a nested
 * stack of their own, so the stack grows by that one resource.
 */
import { Duration, NestedStack } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { Construct } from 'constructs';
import type { StageConfig } from '../stages';
import { TableFunction } from './table-function';

export const OFFER_EXPIRY_MODULE = 'offer-expiry';
/** A run takes at most OFFER_EXPIRY_RUN_LIMIT due offers, each a read and one transaction. */
export const OFFER_EXPIRY_TIMEOUT = Duration.seconds(60);
/**
 * Every five minutes: an offer is expired within five minutes of its `expires_at` (sending one
 * already past it is refused); a run with nothing due is one Query.
 */
export const OFFER_EXPIRY_SCHEDULE = events.Schedule.rate(Duration.minutes(5));

export interface OfferExpiryProps {
  table: dynamodb.ITable;
  stage: StageConfig;
}

/** Adds the nested stack `OfferExpiry` with the function and its schedule. */
export function addOfferExpiry(scope: Construct, props: OfferExpiryProps): NodejsFunction {
  const stack = new NestedStack(scope, 'OfferExpiry');
  // It reads offers and the due partition, changes offers (the open-offer slot, the requisition's
  // count of sent offers, audit intents) and deletes due items: the route functions' `write`
  // access, no more.
  const fn = new TableFunction(stack, 'OfferExpiry', {
    module: OFFER_EXPIRY_MODULE,
    table: props.table,
    access: 'write',
    timeout: OFFER_EXPIRY_TIMEOUT,
    description: 'Offers: expire the sent offers whose expires_at has passed (every five minutes)',
    stage: props.stage,
  }).fn;
  new events.Rule(stack, 'OfferExpirySchedule', {
    description: 'Expires the sent offers whose expires_at has passed',
    schedule: OFFER_EXPIRY_SCHEDULE,
    // A missed run is caught up by the next: a due item stays until its offer is expired.
    targets: [new targets.LambdaFunction(fn, { retryAttempts: 2, maxEventAge: Duration.minutes(10) })],
  });
  return fn;
}
