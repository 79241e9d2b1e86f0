/** Structured JSON logs (Powertools), one logger per cold start. Never log headers or bodies. */
import { Logger } from '@aws-lambda-powertools/logger';
import { SERVICE_NAME } from './config';

export const logger = new Logger({ serviceName: SERVICE_NAME });
