/**
 * Sending email with Amazon SES v2: the domain identity (DKIM-signed mail from a verified domain)
 * and a configuration set (reputation metrics; bounces and complaints suppressed), made when the
 * deploy names a domain (`-c mailDomain=example.com`). No function sends mail until given
 * allowSending, which grants ses:SendEmail on this identity and configuration set only, from
 * this one address, and hands the function MAIL_FROM and SES_CONFIGURATION_SET (lib/email).
 * What to do in DNS and about the SES sandbox: docs/deploying.md, "Email".
 */
import { CfnOutput, Fn, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as ses from 'aws-cdk-lib/aws-ses';
import type { Construct } from 'constructs';
import { Concern } from './concern';

export interface MailProps {
  /** The domain mail is sent from; without it no identity is made and no function can send. */
  domain?: string;
  /** The sender address, in `domain`; defaults to no-reply@<domain>. */
  from?: string;
}

export class Mail extends Concern {
  readonly identity?: ses.EmailIdentity;
  readonly configurationSet?: ses.ConfigurationSet;
  readonly from?: string;

  constructor(scope: Construct, id: string, props: MailProps) {
    super(scope, id);
    if (!props.domain) return;
    const from = props.from ?? `no-reply@${props.domain}`;
    if (!from.toLowerCase().endsWith(`@${props.domain.toLowerCase()}`))
      throw new Error(`-c mailFrom must be an address in ${props.domain}, got "${from}"`);
    this.from = from;
    this.configurationSet = new ses.ConfigurationSet(this, 'MailConfig', {
      reputationMetrics: true,
      suppressionReasons: ses.SuppressionReasons.BOUNCES_AND_COMPLAINTS,
    });
    this.identity = new ses.EmailIdentity(this, 'MailIdentity', {
      identity: ses.Identity.domain(props.domain),
      configurationSet: this.configurationSet,
      dkimSigning: true,
    });
    // The three DKIM CNAME records to publish in the domain's DNS (name=value, one per line).
    new CfnOutput(Stack.of(this), 'MailDkimRecords', {
      description: `DKIM CNAME records to publish for ${props.domain} (name=value)`,
      value: Fn.join(' ', [
        Fn.join('=', [this.identity.dkimDnsTokenName1, this.identity.dkimDnsTokenValue1]),
        Fn.join('=', [this.identity.dkimDnsTokenName2, this.identity.dkimDnsTokenValue2]),
        Fn.join('=', [this.identity.dkimDnsTokenName3, this.identity.dkimDnsTokenValue3]),
      ]),
    });
  }

  /** Let a function send mail: SendEmail from this address, through this identity and configuration set only. */
  allowSending(fn: lambda.Function): void {
    if (!this.identity || !this.configurationSet || !this.from) {
      throw new Error('A function needs to send email: deploy with -c mailDomain=<your domain> (docs/deploying.md, "Email")');
    }
    const stack = Stack.of(this);
    fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['ses:SendEmail'],
        resources: [
          stack.formatArn({ service: 'ses', resource: 'identity', resourceName: this.identity.emailIdentityName }),
          stack.formatArn({ service: 'ses', resource: 'configuration-set', resourceName: this.configurationSet.configurationSetName }),
        ],
        conditions: { StringEquals: { 'ses:FromAddress': this.from } },
      }),
    );
    fn.addEnvironment('MAIL_FROM', this.from);
    fn.addEnvironment('SES_CONFIGURATION_SET', this.configurationSet.configurationSetName);
  }
}
