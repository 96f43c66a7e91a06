import { readinessSuite } from './suite.js';

readinessSuite('vitepress');
