import { runAction } from './github.js';

await runAction();
