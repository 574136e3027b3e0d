// Runs before start and test so /api/system/version reports the commit being served.
import { writeBuildInfo } from '../src/system/build-info.js';

const info = writeBuildInfo(process.cwd());
console.log(`build info: ${info.gitHash} (${info.gitBranch}) at ${info.buildTimestamp}`);
