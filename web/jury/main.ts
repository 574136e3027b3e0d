import '../shared/base.css';
import './jury.css';
import { offlineReloadNotice, registerOfflineShell } from '../shared/offline-shell.js';
import { JuryController } from './controller.js';

const root = document.getElementById('app');
if (root) void new JuryController(root).start();
if (!registerOfflineShell()) root?.before(offlineReloadNotice());
