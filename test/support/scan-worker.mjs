// The readiness scan's worker thread run from its TypeScript source (dist/ ships it bundled).
import { register } from 'tsx/esm/api';

register();
await import('../../src/airgap/scan-worker.ts');
