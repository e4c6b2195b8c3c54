/** The Fastify own-route examples of docs/guide/existing-route.md, run as written: see `docRouteSuite`. */
import { docRouteSuite } from '../support/own-route-checks.js';

docRouteSuite('fastify');
