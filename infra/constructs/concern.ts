/**
 * The stack is split into constructs by concern (route API, webhook pipeline, monitoring, WAF).
 * A concern is a folder in the construct tree, not a part of any resource's identity: its id is
 * left out of the logical ids below it, so moving resources into a concern changes nothing in a
 * deployed stack. Without this, the split would rename every queue, function and the API, and
 * CloudFormation would replace them: a new delivery queue and DLQ (losing their messages) and
 * every function and route. TalentPipelineStack.allocateLogicalId applies it.
 */
import type { CfnElement } from 'aws-cdk-lib';
import { Construct, type IConstruct } from 'constructs';

export abstract class Concern extends Construct {}

/** The scopes of an element with every concern taken out, the view CDK's logical id is built from. */
export function withoutConcerns(element: CfnElement): CfnElement {
  const scopes: IConstruct[] = element.node.scopes.filter((s) => !(s instanceof Concern));
  if (scopes.length === element.node.scopes.length) return element;
  // Stack.allocateLogicalId reads only the element's stack and its scopes (the path from the
  // root); test/unit/stack-split.test.ts pins the resulting ids.
  return { stack: element.stack, node: { scopes } } as unknown as CfnElement;
}
