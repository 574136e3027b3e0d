import '../shared/base.css';
import './jury.css';
import { JuryController } from './controller.js';

const root = document.getElementById('app');
if (root) void new JuryController(root).start();
