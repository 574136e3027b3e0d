// Setup of vitest.mutation.config.ts: properties without an explicit numRuns run PROPERTY_RUNS cases too.
import fc from 'fast-check';
import { propertyRuns } from './property-runs.js';

fc.configureGlobal({ numRuns: propertyRuns(100) });
