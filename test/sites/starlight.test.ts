import { readinessSuite } from './suite.js';

readinessSuite('starlight');
