/** Structured JSON logs (Powertools), one logger per cold start. Never log headers or bodies. */
import { Logger } from '@aws-lambda-powertools/logger';

export const logger = new Logger({ serviceName: 'talent-pipeline' });
