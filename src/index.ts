import { runAction } from './github.js';
import { ignoreClosedPipe } from './signals.js';

ignoreClosedPipe(process.stdout);
await runAction();
