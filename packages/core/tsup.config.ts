import { packageConfig } from '../../tsup.package.js';

export default packageConfig({ index: 'src/index.ts', client: 'src/client/index.ts', adapter: 'src/adapter/index.ts' });
