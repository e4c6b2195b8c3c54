import { packageConfig } from '../../tsup.package.js';

export default packageConfig();
