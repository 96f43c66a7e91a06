import { readinessSuite } from './suite.js';

readinessSuite('next');
