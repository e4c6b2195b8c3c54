/** CORS for browser hosts on Express: the `cors` middleware with `MCP_CORS_OPTIONS` in front of the skills router. */
import { expressCorsApp } from '../support/cors-apps.js';
import { ALLOWED_ORIGIN, corsSuite } from '../support/cors-suite.js';

corsSuite('express', () => expressCorsApp([ALLOWED_ORIGIN]));
