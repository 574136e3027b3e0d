import type { AppDeps, TypedApp } from '../app-types.js';
import { firewallRoutes } from './firewall.js';
import { liveResultsRoutes } from './live-results.js';
import { groupsRoutes } from './groups.js';
import { teamsRoutes } from './teams.js';
import { scoresRoutes } from './scores.js';
import { systemRoutes } from './system.js';
import { catalogRoutes } from './catalog.js';
import { webRoutes } from './web.js';
import { squadsRoutes } from './squads.js';
import { appSettingsRoutes } from './app-settings.js';
import { officeRoutes } from './office.js';
import { resultsRoutes } from './results.js';
import { headJudgeRoutes } from './head-judge.js';
import { panelRoutes } from './panel.js';
import { rotationsRoutes } from './rotations.js';
import { judgeCredentialsRoutes } from './judge-credentials.js';
import { spectatorRoutes } from './spectators.js';
import { judgesEvaluationRoutes } from './judges-evaluation.js';
import { inquiriesRoutes } from './inquiries.js';

export type RouteModule = (app: TypedApp, deps: AppDeps) => Promise<void>;

/** Every HTTP route module of the service; a new module is added here and nowhere else. */
export const routeModules: RouteModule[] = [
  systemRoutes,
  firewallRoutes,
  groupsRoutes,
  teamsRoutes,
  liveResultsRoutes,
  scoresRoutes,
  catalogRoutes,
  squadsRoutes,
  appSettingsRoutes,
  officeRoutes,
  resultsRoutes,
  headJudgeRoutes,
  panelRoutes,
  rotationsRoutes,
  judgeCredentialsRoutes,
  spectatorRoutes,
  judgesEvaluationRoutes,
  inquiriesRoutes,
  webRoutes,
];
