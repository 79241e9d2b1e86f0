/**
 * The key of the application form's tokens (lib/domain/form-token.ts) and of the application
 * limits' digests: a Secrets Manager value that CloudFormation resolves into the environment of
 * the functions whose route line says `formToken` (the public job reads and the application).
 */
import { Validations } from 'aws-cdk-lib';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';

export class FormTokens extends Construct {
  private readonly value: string;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    const secret = new secretsmanager.Secret(this, 'Key', {
      description: 'Talent pipeline: key of the application form tokens',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
    });
    this.value = secret.secretValue.unsafeUnwrap();
    Validations.of(secret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'CloudFormation resolves the key only when it updates the functions, so a rotation Lambda would leave them disagreeing; docs/deploying.md gives the manual rotation (new value, then a deploy), which refuses only the forms read in the minute between.',
    });
  }

  give(fn: NodejsFunction): void {
    fn.addEnvironment('FORM_TOKEN_SECRET', this.value);
  }
}
