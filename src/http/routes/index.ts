import type { AppDeps, TypedApp } from '../../app.js';
import { systemRoutes } from './system.js';

export type RouteModule = (app: TypedApp, deps: AppDeps) => Promise<void>;

/** Every HTTP route module of the service; a new module is added here and nowhere else. */
export const routeModules: RouteModule[] = [systemRoutes];
