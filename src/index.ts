import { runAction } from './github.js';
import { ignoreClosedPipe, runToTheEnd } from './signals.js';

ignoreClosedPipe(process.stdout);
await runToTheEnd(runAction, (line) => process.stdout.write(`::error::${line}\n`));
