// The fingerprint worker run from its TypeScript source, as dist/fingerprint-worker.js runs it built.
import { register } from 'tsx/esm/api';

register();
await import('../../src/changes/fingerprint-worker.ts');
