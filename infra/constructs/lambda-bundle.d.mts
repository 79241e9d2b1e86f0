import type { Plugin } from 'esbuild';

export declare const XRAY_SERVICES: string[];
export declare const lambdaPlugins: () => Plugin[];
